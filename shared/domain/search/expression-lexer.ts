/**
 * The tokens of filter and facet expressions, e.g.
 * `objectTypeProperty.arrayOfIntExample:range(1 to *), 7` reads as the words, symbols and
 * numbers `objectTypeProperty . arrayOfIntExample : range ( 1 to * ) , 7`.
 */
import { characterAt, matchFirst, type Lexeme, type Token, type TokenPatterns } from '../language/token-cursor';
import type { ExpressionSource } from './expression-ast';
import { syntaxError } from './search-error';

export type ExpressionKind = 'word' | 'number' | 'string' | ':' | ',' | '(' | ')' | '*' | '.';
export type ExpressionToken = Token<ExpressionKind>;

/** No two kinds start with the same character, so the order only puts the frequent first. */
const PATTERNS: TokenPatterns<ExpressionKind> = [
  ['space', /\s+/y],
  ['word', /[\p{L}_][\p{L}\p{N}_]*/uy],
  ['.', /\./y],
  [':', /:/y],
  [',', /,/y],
  ['(', /\(/y],
  [')', /\)/y],
  ['number', /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y],
  ['*', /\*/y],
];

/** The token at `offset` of the expression; errors name the parameter it came in. */
export function readExpressionToken(source: ExpressionSource, offset: number): Lexeme<ExpressionKind> {
  const { text: expression } = source;
  if (expression.charAt(offset) === '"') return readString(source, offset);
  const match = matchFirst(PATTERNS, expression, offset);
  if (!match) throw syntaxError(source, `Unexpected character '${characterAt(expression, offset)}'`, offset + 1);
  const { kind, text } = match;
  if (kind !== 'number') return { kind, length: text.length };
  const value = Number(text);
  if (!Number.isFinite(value)) throw syntaxError(source, `The number ${text} is too large`, offset + 1);
  return { kind, length: text.length, value };
}

/** A double-quoted string; a backslash takes the next character literally. */
function readString(source: ExpressionSource, start: number): Lexeme<ExpressionKind> {
  const { text } = source;
  let value = '';
  for (let offset = start + 1; offset < text.length; offset++) {
    const char = text.charAt(offset);
    if (char === '"') return { kind: 'string', length: offset + 1 - start, value };
    if (char === '\\') offset++;
    value += text.charAt(offset);
  }
  throw syntaxError(source, 'Unterminated string: a closing \'"\' is missing', start + 1);
}
