/**
 * What the query languages (`where`/`sort` in ../query, search in ../search) share: the token
 * cursor their parsers read with, the field-path rule, one error type, the field model read from
 * the resource's JSON Schema, and the type of a compiled predicate.
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
export { ParameterError } from './parameter-error';
export { characterAt, matchFirst, TokenCursor, type CursorOptions, type Lexeme, type Token, type TokenPatterns, type TokenReader } from './token-cursor';
