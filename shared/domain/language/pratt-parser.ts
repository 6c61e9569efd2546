import type { Lexer } from './lexer';
import type { SyntaxErrors, Token, TokenOfType } from './token';

/**
 * The one parser engine of the query languages: a Pratt parser (top-down operator precedence),
 * as in the labd commercetools mock. A grammar is a set of rule tables. A table's prefix rules
 * ("nud") say which construct a token begins; its infix rules ("led") say which operators may
 * follow a construct and how tightly they bind. `parse` runs Pratt's loop over one table: one
 * prefix construct, then every operator that binds tighter than the caller's binding power.
 *
 * Rules are found by token type, or by keyword: a language says which keyword a token spells
 * (e.g. a word, lower-cased), and a keyword rule wins over a type rule. Keywords are only
 * keywords where a table has a rule for them, so a field may still be called `key` or `empty`.
 */

/** Parses the construct `token` begins; the token is already consumed. */
export type PrefixParselet<Tok extends Token, Node, First extends Tok = Tok> = (token: First, parser: PrattParser<Tok>) => Node;

/** Parses what an operator adds to `left`; the operator token is already consumed. */
export type InfixParselet<Tok extends Token, Left, Node, Operator extends Tok = Tok> = (
  left: Left,
  token: Operator,
  parser: PrattParser<Tok>,
) => Node;

interface InfixRule<Tok extends Token, Left, Node> {
  readonly bindingPower: number;
  readonly parse: InfixParselet<Tok, Left, Node>;
}

/** One table of rules. `Left` is what infix rules take on their left, usually the same as `Node`. */
export class PrattRules<Tok extends Token, Node, Left = Node> {
  private readonly prefixByType = new Map<string, PrefixParselet<Tok, Node>>();
  private readonly prefixByKeyword = new Map<string, PrefixParselet<Tok, Node>>();
  private readonly infixByType = new Map<string, InfixRule<Tok, Left, Node>>();
  private readonly infixByKeyword = new Map<string, InfixRule<Tok, Left, Node>>();

  /** A construct that begins with a token of `type`. */
  prefix<Type extends Tok['type']>(type: Type, parse: PrefixParselet<Tok, Node, TokenOfType<Tok, Type>>): this {
    // Safe: the rule is only ever looked up for tokens of this type.
    this.prefixByType.set(type, parse as unknown as PrefixParselet<Tok, Node>);
    return this;
  }

  /** A construct that begins with `keyword`. */
  prefixKeyword(keyword: string, parse: PrefixParselet<Tok, Node>): this {
    this.prefixByKeyword.set(keyword, parse);
    return this;
  }

  /** An operator token of `type`; a higher binding power binds tighter. */
  infix<Type extends Tok['type']>(type: Type, bindingPower: number, parse: InfixParselet<Tok, Left, Node, TokenOfType<Tok, Type>>): this {
    this.infixByType.set(type, { bindingPower, parse: parse as unknown as InfixParselet<Tok, Left, Node> });
    return this;
  }

  /** An operator spelled `keyword`, e.g. `and`. */
  infixKeyword(keyword: string, bindingPower: number, parse: InfixParselet<Tok, Left, Node>): this {
    this.infixByKeyword.set(keyword, { bindingPower, parse });
    return this;
  }

  prefixFor(token: Tok, keyword: string | undefined): PrefixParselet<Tok, Node> | undefined {
    return (keyword === undefined ? undefined : this.prefixByKeyword.get(keyword)) ?? this.prefixByType.get(token.type);
  }

  infixFor(token: Tok, keyword: string | undefined): InfixRule<Tok, Left, Node> | undefined {
    return (keyword === undefined ? undefined : this.infixByKeyword.get(keyword)) ?? this.infixByType.get(token.type);
  }
}

/** What a language tells the engine besides its rules. */
export interface Language<Tok extends Token> {
  readonly errors: SyntaxErrors<Tok>;
  /** The keyword a token spells, if it can spell one: a word's text, lower-cased where keywords ignore case. */
  keywordOf(token: Tok): string | undefined;
  /** How deep `nested` may go, and the error past that depth. Without it, nesting is unbounded. */
  readonly nesting?: { readonly maxDepth: number; tooDeep(open: Tok): Error };
}

/** The parse of one source text: reads all its tokens with the language's lexer, then parses on demand. */
export class PrattParser<Tok extends Token> {
  readonly source: string;
  private readonly tokens: readonly Tok[];
  private readonly language: Language<Tok>;
  private index = 0;
  private depth = 0;

  constructor(source: string, lexer: Lexer<Tok>, language: Language<Tok>) {
    this.source = source;
    this.tokens = lexer.tokenize(source, language.errors);
    this.language = language;
  }

  /**
   * Pratt's loop over `rules`: the construct the next token begins, then, left to right, every
   * operator that binds tighter than `minBindingPower`. An infix rule parses its right side with
   * `parse(rules, ..., itsBindingPower)`, which makes operators of equal power left-associative.
   * `expected` says what may begin a construct here, for the error when nothing does.
   */
  parse<Node>(rules: PrattRules<Tok, Node>, expected: string, minBindingPower = 0): Node {
    const first = this.peek();
    const prefix = rules.prefixFor(first, this.keywordOf(first));
    if (!prefix) throw this.unexpected(first, expected);
    this.advance();
    let left = prefix(first, this);
    for (;;) {
      const operator = this.peek();
      const infix = rules.infixFor(operator, this.keywordOf(operator));
      if (!infix || infix.bindingPower <= minBindingPower) return left;
      this.advance();
      left = infix.parse(left, operator, this);
    }
  }

  /** Exactly one operator of `rules` must follow `left` (binding powers are not consulted). */
  operator<Left, Node>(rules: PrattRules<Tok, Node, Left>, left: Left, expected: string): Node {
    const operator = this.peek();
    const infix = rules.infixFor(operator, this.keywordOf(operator));
    if (!infix) throw this.unexpected(operator, expected);
    this.advance();
    return infix.parse(left, operator, this);
  }

  /** Runs `parse` one bracket level deeper than `open`, refusing nesting past the language's limit. */
  nested<Node>(open: Tok, parse: () => Node): Node {
    this.depth += 1;
    try {
      const { nesting } = this.language;
      if (nesting && this.depth > nesting.maxDepth) throw nesting.tooDeep(open);
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  /** `item (separator item)*`: at least one item. */
  separated<Item>(separator: Tok['type'], item: () => Item): Item[] {
    const items = [item()];
    while (this.accept(separator)) items.push(item());
    return items;
  }

  // --- the token stream ----------------------------------------------------------------------

  peek(ahead = 0): Tok {
    // The stream ends with the end token, which is never consumed.
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  advance(): Tok {
    const token = this.peek();
    if (token.type !== 'end') this.index += 1;
    return token;
  }

  isAt(type: Tok['type'], ahead = 0): boolean {
    return this.peek(ahead).type === type;
  }

  isAtKeyword(keyword: string, ahead = 0): boolean {
    return this.keywordOf(this.peek(ahead)) === keyword;
  }

  accept<Type extends Tok['type']>(type: Type): TokenOfType<Tok, Type> | undefined {
    return this.isAt(type) ? (this.advance() as TokenOfType<Tok, Type>) : undefined;
  }

  acceptKeyword(keyword: string): Tok | undefined {
    return this.isAtKeyword(keyword) ? this.advance() : undefined;
  }

  expect<Type extends Tok['type']>(type: Type, expected: string): TokenOfType<Tok, Type> {
    const token = this.accept(type);
    if (!token) throw this.unexpected(this.peek(), expected);
    return token;
  }

  expectKeyword(keyword: string, expected: string): Tok {
    const token = this.acceptKeyword(keyword);
    if (!token) throw this.unexpected(this.peek(), expected);
    return token;
  }

  /** The whole source must have been read; `expected` says what else could have followed. */
  expectEnd(expected: string): void {
    if (!this.isAt('end')) throw this.unexpected(this.peek(), expected);
  }

  /** The source text from the start of `first` to the end of `last`, as written. */
  textBetween(first: Tok, last: Tok): string {
    return this.source.slice(first.offset, last.offset + last.text.length);
  }

  unexpected(token: Tok, expected: string): Error {
    return this.language.errors.unexpected(token, expected);
  }

  private keywordOf(token: Tok): string | undefined {
    return this.language.keywordOf(token);
  }
}
