import type { SyntaxErrors, Token, TokenOfType } from './token';

/**
 * The one lexer of the query languages. A language lists its token types in order, each with a
 * reader; at every offset the first reader that recognises a token wins (as in the perplex lexer
 * the labd commercetools mock uses). Whitespace between tokens is skipped. The whole source is
 * read before parsing starts, so a stray character is reported before any grammar error.
 */

/** Builds the language's error for a problem at an offset; readers throw what it returns. */
export type ProblemAt = SyntaxErrors['at'];

/** A token found by a reader: how many characters it covers and the value it stands for. */
export interface Lexeme<Value> {
  readonly length: number;
  readonly value: Value;
}

/**
 * Recognises one type of token at `offset`, or answers undefined when none starts there. A token
 * that starts right but is malformed (an unterminated string) is an error: `throw fail(...)`.
 */
export type TokenReader<Value> = (source: string, offset: number, fail: ProblemAt) => Lexeme<Value> | undefined;

interface TokenRule {
  readonly type: string;
  readonly read: TokenReader<unknown>;
}

export class Lexer<Tok extends Token> {
  private readonly whitespace: RegExp;
  private readonly rules: TokenRule[] = [];

  /** `whitespace` matches what may stand between tokens, e.g. `/\s+/`. */
  constructor(whitespace: RegExp) {
    this.whitespace = sticky(whitespace);
  }

  /** Adds a token type; types are tried in the order they were added. */
  token<Type extends Exclude<Tok['type'], 'end'>>(type: Type, read: TokenReader<TokenOfType<Tok, Type>['value']>): this {
    this.rules.push({ type, read });
    return this;
  }

  /** All tokens of `source`, ending with the end token. Throws the language's error for text no rule reads. */
  tokenize(source: string, errors: Pick<SyntaxErrors, 'at'>): Tok[] {
    const fail: ProblemAt = (problem, offset, expected) => errors.at(problem, offset, expected);
    const tokens: Tok[] = [];
    let offset = 0;
    while (offset < source.length) {
      const space = matchAt(this.whitespace, source, offset);
      if (space) {
        offset += space[0].length;
        continue;
      }
      const token = this.read(source, offset, fail);
      tokens.push(token);
      offset += token.text.length;
    }
    tokens.push({ type: 'end', text: '', offset: source.length, value: undefined } as Tok);
    return tokens;
  }

  private read(source: string, offset: number, fail: ProblemAt): Tok {
    for (const rule of this.rules) {
      const lexeme = rule.read(source, offset, fail);
      if (lexeme === undefined) continue;
      if (lexeme.length < 1) throw new Error(`The reader of '${rule.type}' tokens read nothing at offset ${offset}`);
      return { type: rule.type, text: source.slice(offset, offset + lexeme.length), offset, value: lexeme.value } as Tok;
    }
    const character = String.fromCodePoint(source.codePointAt(offset) ?? 0); // a whole character, never half a surrogate pair
    throw fail(`Unexpected character '${character}'`, offset);
  }
}

/** Reads `text` itself, e.g. a punctuation mark; the token has no value. */
export function exactly(text: string): TokenReader<undefined> {
  return (source, offset) => (source.startsWith(text, offset) ? { length: text.length, value: undefined } : undefined);
}

/**
 * Reads a match of `pattern` (anchored at the offset); `valueOf` turns the match into the
 * token's value and may refuse it with `throw fail(...)`.
 */
export function matching<Value>(
  pattern: RegExp,
  valueOf: (match: RegExpExecArray, offset: number, source: string, fail: ProblemAt) => Value,
): TokenReader<Value> {
  const anchored = sticky(pattern);
  return (source, offset, fail) => {
    const match = matchAt(anchored, source, offset);
    return match ? { length: match[0].length, value: valueOf(match, offset, source, fail) } : undefined;
  };
}

function sticky(pattern: RegExp): RegExp {
  return pattern.sticky ? pattern : new RegExp(pattern.source, `${pattern.flags}y`);
}

/** A non-empty match starting exactly at `offset`. */
function matchAt(pattern: RegExp, source: string, offset: number): RegExpExecArray | undefined {
  pattern.lastIndex = offset;
  const match = pattern.exec(source);
  return match && match[0].length > 0 ? match : undefined;
}
