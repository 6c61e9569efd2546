/**
 * Tokens and syntax errors as the lexer and the Pratt parser of this folder see them. Each
 * language names its own token types and says how its errors read.
 */

/** One token: its type, its exact source text, where it starts, and the value it stands for. */
export interface Token<Type extends string = string, Value = unknown> {
  readonly type: Type;
  /** Exactly the source text the token covers; empty for the end of the input. */
  readonly text: string;
  /** Zero-based offset of the token's first character in the source. */
  readonly offset: number;
  /** What the token stands for: a string's unescaped text, a number, an operator, ... */
  readonly value: Value;
}

/** Every token stream ends with this one, at the source's length; it is never consumed. */
export type EndToken = Token<'end', undefined>;

/**
 * The token union of a language from its token types and their values, plus the end token:
 * `TokensOf<{ word: string; number: number }>`.
 */
export type TokensOf<Values extends Record<string, unknown>> =
  | { [Type in keyof Values & string]: Token<Type, Values[Type]> }[keyof Values & string]
  | EndToken;

/** The token of one type out of a language's union, e.g. `TokenOfType<PredicateToken, 'number'>`. */
export type TokenOfType<Tok extends Token, Type extends Tok['type']> = Extract<Tok, { type: Type }>;

/**
 * How a language words its syntax errors. The engine only says what went wrong and where;
 * the language turns that into its own error class and message.
 */
export interface SyntaxErrors<Tok extends Token = Token> {
  /** A problem at an offset of the source, e.g. "Unterminated string" (what was expected, if known). */
  at(problem: string, offset: number, expected?: string): Error;
  /** A token where the grammar expected something else (`expected` says what, for the user). */
  unexpected(token: Tok, expected: string): Error;
}
