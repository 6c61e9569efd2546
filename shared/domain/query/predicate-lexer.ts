/**
 * The tokens of `where` predicates and `sort` expressions: words (field names and keywords alike; the grammar decides
 * which a word is), double-quoted strings with JSON's escapes, numbers, `:variables`,
 * comparison operators and punctuation.
 */
import { characterAt, matchFirst, TokenCursor, type Lexeme, type Token, type TokenPatterns } from '../language/token-cursor';
import { queryError, unexpectedToken, type QueryParameter } from './query-error';

export type PredicateKind = 'word' | 'string' | 'number' | 'variable' | 'operator' | '(' | ')' | ',' | '.';
export type PredicateToken = Token<PredicateKind>;

/** No two kinds start with the same character, so the order only puts the frequent first. */
const PATTERNS: TokenPatterns<PredicateKind> = [
  ['space', /[ \t\n\r]+/y],
  ['word', /[A-Za-z_][A-Za-z0-9_]*/y],
  ['(', /\(/y],
  [')', /\)/y],
  // Two-character operators first, so `<=` is not read as `<` followed by `=`.
  ['operator', /<=|>=|!=|<>|=|<|>/y],
  ['number', /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y],
  [',', /,/y],
  ['.', /\./y],
  ['variable', /:[A-Za-z0-9_]*/y],
];
/** A number running straight into one of these ("12abc", "1.5.2") is malformed, not two tokens. */
const NUMBER_CONTINUATION = /[A-Za-z0-9_.]/;
const STRING_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The tokens of a `where` or `sort` parameter; errors name that parameter. Keywords ignore case. */
export function predicateTokens(parameter: QueryParameter, source: string): TokenCursor<PredicateKind> {
  return new TokenCursor(source, {
    readToken: (text, offset) => readToken(parameter, text, offset),
    unexpected: (token, expected) => unexpectedToken(parameter, token, expected),
    keywordsIgnoreCase: true,
  });
}

function readToken(parameter: QueryParameter, source: string, offset: number): Lexeme<PredicateKind> {
  const lexicalError = (problem: string, at: number, expected?: string) => queryError(parameter, problem, { column: at + 1, expected });
  if (source.charAt(offset) === '"') return readString(source, offset, lexicalError);
  const match = matchFirst(PATTERNS, source, offset);
  if (!match) throw lexicalError(`Unexpected character '${characterAt(source, offset)}'`, offset);
  const { kind, text } = match;
  if (kind === 'number') return { kind, length: text.length, value: numberValue(text, source, offset, lexicalError) };
  // `<>` is read as `!=`.
  if (kind === 'operator') return { kind, length: text.length, value: text === '<>' ? '!=' : text };
  if (kind === 'variable' && text.length === 1) throw lexicalError("Expected a variable name after ':'", offset);
  return { kind, length: text.length };
}

/** The error for a malformed token at an offset. */
type LexicalError = (problem: string, offset: number, expected?: string) => Error;

function numberValue(text: string, source: string, offset: number, lexicalError: LexicalError): number {
  const end = offset + text.length;
  if (NUMBER_CONTINUATION.test(source.charAt(end))) throw lexicalError(`Malformed number '${source.slice(offset, end + 1)}'`, offset);
  const value = Number(text);
  if (!Number.isFinite(value)) throw lexicalError(`Number ${text} is out of range`, offset);
  return value;
}

/** A double-quoted string with JSON's backslash escapes. */
function readString(source: string, start: number, lexicalError: LexicalError): Lexeme<PredicateKind> {
  let value = '';
  for (let offset = start + 1; offset < source.length; ) {
    const char = source.charAt(offset);
    if (char === '"') return { kind: 'string', length: offset + 1 - start, value };
    if (char !== '\\') {
      value += char;
      offset += 1;
      continue;
    }
    const letter = source.charAt(offset + 1);
    const hex = source.slice(offset + 2, offset + 6);
    if (Object.hasOwn(STRING_ESCAPES, letter)) {
      value += STRING_ESCAPES[letter];
      offset += 2;
    } else if (letter === 'u' && /^[0-9A-Fa-f]{4}$/.test(hex)) {
      value += String.fromCharCode(Number.parseInt(hex, 16));
      offset += 6;
    } else {
      throw lexicalError(`Invalid escape sequence '\\${letter}'`, offset);
    }
  }
  throw lexicalError('Unterminated string', start, 'a closing \'"\'');
}
