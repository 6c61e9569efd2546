/**
 * What both query languages read their text with: a cursor over its tokens. Each language says
 * which characters make which token (its `readToken`) and parses the tokens by recursive
 * descent: `peek` at the next token, `accept` it if it is the one wanted, or `expect` it and
 * fail saying what was expected there.
 */

/** One token: its kind, its exact source text and where it starts. */
export interface Token<Kind extends string> {
  readonly kind: Kind | 'end';
  /** Exactly the source text the token covers; empty for the end of the input. */
  readonly text: string;
  /** 1-based column of its first character; the end is one past the last character. */
  readonly column: number;
  /** A string's unescaped text, a number's value; for other tokens their text. */
  readonly value: string | number;
}

/** What a language's reader found at an offset: a token (`space` is skipped) and its length. */
export interface Lexeme<Kind extends string> {
  readonly kind: Kind | 'space';
  readonly length: number;
  readonly value?: string | number;
}

/** Reads the token at an offset; throws the language's error for text that makes no token. */
export type TokenReader<Kind extends string> = (source: string, offset: number) => Lexeme<Kind>;

/** All tokens of `source`, ending with the end token. */
function tokenize<Kind extends string>(source: string, readToken: TokenReader<Kind>): Token<Kind>[] {
  const tokens: Token<Kind>[] = [];
  for (let offset = 0; offset < source.length; ) {
    const { kind, length, value } = readToken(source, offset);
    if (length < 1) throw new Error(`The reader of '${kind}' tokens read nothing at offset ${offset}`);
    const text = source.slice(offset, offset + length);
    if (kind !== 'space') tokens.push({ kind, text, column: offset + 1, value: value ?? text });
    offset += length;
  }
  tokens.push({ kind: 'end', text: '', column: source.length + 1, value: '' });
  return tokens;
}

/** A language's token kinds, each with the sticky pattern that reads it, in the order they are tried. */
export type TokenPatterns<Kind extends string> = readonly (readonly [Kind | 'space', RegExp])[];

/** The first kind whose pattern matches at `offset`, and the text it matches. */
export function matchFirst<Kind extends string>(patterns: TokenPatterns<Kind>, source: string, offset: number) {
  for (const [kind, pattern] of patterns) {
    pattern.lastIndex = offset;
    const text = pattern.exec(source)?.[0];
    if (text) return { kind, text };
  }
  return undefined;
}

/** The character at `offset` for a message: a whole character, never half a surrogate pair. */
export function characterAt(source: string, offset: number): string {
  return String.fromCodePoint(source.codePointAt(offset) ?? 0);
}

export interface CursorOptions<Kind extends string> {
  readonly readToken: TokenReader<Kind>;
  /** The language's error for `token` found where `expected` (said for the user) should be. */
  readonly unexpected: (token: Token<Kind>, expected: string) => Error;
  /** Whether `AND` is the keyword `and`. */
  readonly keywordsIgnoreCase: boolean;
}

/** The tokens of one source text. The whole text is read first, so a stray character is reported before any grammar error. */
export class TokenCursor<Kind extends string> {
  /** Ends with the end token, which is never moved past. */
  private readonly tokens: readonly Token<Kind>[];
  private index = 0;

  constructor(
    private readonly source: string,
    private readonly options: CursorOptions<Kind>,
  ) {
    this.tokens = tokenize(source, options.readToken);
  }

  peek(): Token<Kind> {
    return this.tokens[this.index]!;
  }

  /** Takes the next token if it is of `kind`. */
  accept(kind: Kind | 'end'): Token<Kind> | undefined {
    const token = this.peek();
    if (token.kind !== kind) return undefined;
    if (kind !== 'end') this.index += 1;
    return token;
  }

  /** Takes the next token if it is the word `keyword`. A keyword is a word the grammar asks for there, so a field may well be called `key` or `empty`. */
  acceptKeyword(keyword: string): Token<Kind> | undefined {
    const { kind, text } = this.peek();
    const spelled = this.options.keywordsIgnoreCase ? text.toLowerCase() : text;
    return kind === 'word' && spelled === keyword ? this.accept(kind) : undefined;
  }

  expect(kind: Kind | 'end', expected: string): Token<Kind> {
    return this.accept(kind) ?? this.fail(expected);
  }

  expectKeyword(keyword: string, expected: string): Token<Kind> {
    return this.acceptKeyword(keyword) ?? this.fail(expected);
  }

  /** The source text from the start of `first` to the end of `last`, as written. */
  textBetween(first: Token<Kind>, last: Token<Kind>): string {
    return this.source.slice(first.column - 1, last.column - 1 + last.text.length);
  }

  /** Refuses the next token: `expected` says what could have stood there. */
  fail(expected: string): never {
    throw this.options.unexpected(this.peek(), expected);
  }
}
