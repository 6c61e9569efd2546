/**
 * What the query languages (`where`/`sort` in ../query, search in ../search) share: one lexer,
 * one Pratt parser engine, the field-path rule, the field model read from the resource's JSON
 * Schema, and the type of a compiled predicate.
 */
export type { DocumentPredicate } from './document-predicate';
export {
  elementsOf,
  fieldModelFromJsonSchema,
  fieldOf,
  type ArrayFieldModel,
  type FieldModel,
  type ObjectFieldModel,
  type ScalarFieldModel,
  type ScalarKind,
  type UntypedFieldModel,
} from './field-model';
export { fieldPathFrom, type FieldPathSyntax } from './field-path';
export { exactly, Lexer, matching, type Lexeme, type ProblemAt, type TokenReader } from './lexer';
export { PrattParser, PrattRules, type InfixParselet, type Language, type PrefixParselet } from './pratt-parser';
export type { EndToken, SyntaxErrors, Token, TokenOfType, TokensOf } from './token';
