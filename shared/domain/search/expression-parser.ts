import { lex, syntaxError, type ExpressionSource, type SymbolText, type Token } from './expression-lexer';
import type { SearchError } from './search-error';

/**
 * Parses filter and facet expressions (commercetools product search syntax):
 *
 *   filter     := fieldPath ':' condition
 *   facet      := fieldPath [':' condition] ['as' name]
 *   fieldPath  := word ('.' word)*
 *   condition  := 'exists' | 'missing' | item (',' item)*
 *   item       := number | string | ['range'] '(' bound 'to' bound ')'
 *   bound      := number | string | '*'
 *
 * The result is syntax only; whether the field exists and the values fit it is checked later.
 */

export type Scalar = number | string;

/** A range end; undefined is `*`, an open end. */
export type Bound = { value: Scalar; text: string } | undefined;

export interface TermItem {
  kind: 'term';
  value: Scalar;
  text: string;
  column: number;
}

export interface RangeItem {
  kind: 'range';
  from: Bound;
  to: Bound;
  text: string;
  column: number;
}

export type ValueItem = TermItem | RangeItem;

export type Condition = { kind: 'exists' } | { kind: 'missing' } | { kind: 'values'; items: ValueItem[] };

export interface FieldReference {
  path: string;
  column: number;
}

export interface FilterExpression {
  source: ExpressionSource;
  field: FieldReference;
  condition: Condition;
}

export interface FacetExpression {
  source: ExpressionSource;
  field: FieldReference;
  /** Absent for a term facet (`facet=<field>`). */
  condition: Condition | undefined;
  alias: string | undefined;
}

export function parseFilterExpression(source: ExpressionSource): FilterExpression {
  const parser = new Parser(source);
  const field = parser.fieldPath();
  const condition = parser.condition();
  parser.end(whatMayFollow(condition, { alias: false }));
  return { source, field, condition };
}

export function parseFacetExpression(source: ExpressionSource): FacetExpression {
  const parser = new Parser(source);
  const field = parser.fieldPath();
  const condition = parser.nextIsSymbol(':') ? parser.condition() : undefined;
  const alias = parser.alias();
  parser.end(alias === undefined ? whatMayFollow(condition, { alias: true }) : 'the end of the expression');
  return { source, field, condition, alias };
}

/** For error messages: what could have come instead of the token found after an expression. */
function whatMayFollow(condition: Condition | undefined, allows: { alias: boolean }): string {
  const continuations = [
    ...(condition === undefined ? ["':'"] : condition.kind === 'values' ? ["','"] : []),
    ...(allows.alias ? ["'as'"] : []),
  ];
  const end = 'the end of the expression';
  return continuations.length === 0 ? end : `${continuations.join(', ')} or ${end}`;
}

class Parser {
  private readonly source: ExpressionSource;
  private readonly tokens: readonly Token[];
  private position = 0;

  constructor(source: ExpressionSource) {
    this.source = source;
    this.tokens = lex(source);
  }

  fieldPath(): FieldReference {
    const first = this.expectWord('a field name');
    let path = first.text;
    while (this.acceptSymbol('.')) path += `.${this.expectWord("a field name after '.'").text}`;
    return { path, column: first.column };
  }

  condition(): Condition {
    this.expectSymbol(':');
    if (this.acceptWord('exists')) return { kind: 'exists' };
    if (this.acceptWord('missing')) return { kind: 'missing' };
    const items = [this.item()];
    while (this.acceptSymbol(',')) items.push(this.item());
    return { kind: 'values', items };
  }

  alias(): string | undefined {
    return this.acceptWord('as') ? this.expectWord("a facet name after 'as'").text : undefined;
  }

  end(expected: string): void {
    const token = this.peek();
    if (token.type !== 'end') throw this.unexpected(token, expected);
  }

  nextIsSymbol(symbol: SymbolText): boolean {
    const token = this.peek();
    return token.type === 'symbol' && token.text === symbol;
  }

  private item(): ValueItem {
    const token = this.peek();
    if (token.type === 'number' || token.type === 'string') {
      this.advance();
      return { kind: 'term', value: token.value, text: token.text, column: token.column };
    }
    if (token.type === 'word' && token.text === 'range') {
      this.advance();
      return this.range(token.column);
    }
    // commercetools lists further ranges without repeating the keyword: `range (1 to 5), (7 to 9)`
    if (this.nextIsSymbol('(')) return this.range(token.column);
    throw this.unexpected(token, 'a number, a "quoted string", range(from to to), exists or missing');
  }

  private range(column: number): RangeItem {
    this.expectSymbol('(');
    const from = this.bound();
    this.expectWord("'to'", 'to');
    const to = this.bound();
    const close = this.expectSymbol(')');
    const text = this.source.text.slice(column - 1, close.column);
    return { kind: 'range', from, to, text, column };
  }

  private bound(): Bound {
    const token = this.peek();
    if (token.type === 'number' || token.type === 'string') {
      this.advance();
      return { value: token.value, text: token.text };
    }
    if (this.acceptSymbol('*')) return undefined;
    throw this.unexpected(token, 'a number, a "quoted string" or * for an open end');
  }

  private peek(): Token {
    return this.tokens[this.position] ?? this.endToken();
  }

  private endToken(): Token {
    return { type: 'end', text: '', column: this.source.text.length + 1 };
  }

  private advance(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.position++;
    return token;
  }

  private acceptSymbol(symbol: SymbolText): boolean {
    if (!this.nextIsSymbol(symbol)) return false;
    this.advance();
    return true;
  }

  private acceptWord(word: string): boolean {
    const token = this.peek();
    if (token.type !== 'word' || token.text !== word) return false;
    this.advance();
    return true;
  }

  private expectSymbol(symbol: SymbolText): Token {
    if (!this.nextIsSymbol(symbol)) throw this.unexpected(this.peek(), `'${symbol}'`);
    return this.advance();
  }

  /** A word; with `exactly` given, that very word. */
  private expectWord(description: string, exactly?: string): Token {
    const token = this.peek();
    const fits = token.type === 'word' && (exactly === undefined || token.text === exactly);
    if (!fits) throw this.unexpected(token, description);
    return this.advance();
  }

  private unexpected(token: Token, expected: string): SearchError {
    const found = token.type === 'end' ? 'the end of the expression' : `'${token.text}'`;
    return syntaxError(this.source, `Expected ${expected} but found ${found}`, token.column);
  }
}
