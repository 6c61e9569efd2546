import { malformedParameter, type SearchError } from './search-error';

/**
 * Splits a filter or facet expression into tokens, e.g.
 * `objectTypeProperty.arrayOfIntExample:range(1 to *), 7` becomes the words, symbols and
 * numbers `objectTypeProperty . arrayOfIntExample : range ( 1 to * ) , 7`.
 */

export type SymbolText = ':' | ',' | '(' | ')' | '*' | '.';

export type Token =
  | { type: 'word'; text: string; column: number }
  | { type: 'number'; text: string; value: number; column: number }
  | { type: 'string'; text: string; value: string; column: number }
  | { type: 'symbol'; text: SymbolText; column: number }
  | { type: 'end'; text: ''; column: number };

/** One expression as the request gave it, with the parameter it came in, for error messages. */
export interface ExpressionSource {
  parameter: string;
  text: string;
}

/** A syntax error pointing at a 1-based column of the expression. */
export function syntaxError(source: ExpressionSource, detail: string, column: number): SearchError {
  return malformedParameter(source.parameter, `${detail} at column ${column} of '${source.text}'.`);
}

const WHITESPACE = /\s+/y;
const WORD = /[\p{L}_][\p{L}\p{N}_]*/uy;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SYMBOLS: readonly string[] = [':', ',', '(', ')', '*', '.'] satisfies SymbolText[];

export function lex(source: ExpressionSource): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.text.length) {
    const space = matchAt(WHITESPACE, source.text, index);
    if (space !== undefined) {
      index += space.length;
      continue;
    }
    const token = readToken(source, index);
    tokens.push(token);
    index += token.text.length; // every token's text is exactly what it consumed
  }
  tokens.push({ type: 'end', text: '', column: source.text.length + 1 });
  return tokens;
}

function readToken(source: ExpressionSource, index: number): Token {
  const column = index + 1;
  const word = matchAt(WORD, source.text, index);
  if (word !== undefined) return { type: 'word', text: word, column };
  const number = matchAt(NUMBER, source.text, index);
  if (number !== undefined) return numberToken(source, number, column);
  const char = source.text.charAt(index);
  if (char === '"') return readString(source, index);
  if (isSymbol(char)) return { type: 'symbol', text: char, column };
  const wholeCharacter = String.fromCodePoint(source.text.codePointAt(index) ?? 0); // not half a surrogate pair
  throw syntaxError(source, `Unexpected character '${wholeCharacter}'`, column);
}

function matchAt(pattern: RegExp, text: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[0];
}

function isSymbol(char: string): char is SymbolText {
  return SYMBOLS.includes(char);
}

function numberToken(source: ExpressionSource, text: string, column: number): Token {
  const value = Number(text);
  if (!Number.isFinite(value)) throw syntaxError(source, `The number ${text} is too large`, column);
  return { type: 'number', text, value, column };
}

/** A double-quoted string starting at `start`; a backslash takes the next character literally. */
function readString(source: ExpressionSource, start: number): Token {
  const text = source.text;
  let value = '';
  for (let index = start + 1; index < text.length; index++) {
    const char = text.charAt(index);
    if (char === '"') return { type: 'string', text: text.slice(start, index + 1), value, column: start + 1 };
    if (char === '\\') index++;
    value += text.charAt(index);
  }
  throw syntaxError(source, 'Unterminated string: a closing \'"\' is missing', start + 1);
}
