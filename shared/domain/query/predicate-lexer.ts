/**
 * The tokens of `where` predicates: words (field names and keywords alike; the grammar decides
 * which a word is), double-quoted strings with JSON's escapes, numbers, `:variables`,
 * comparison operators and punctuation.
 */
import { exactly, Lexer, matching, type Lexeme, type ProblemAt } from '../language/lexer';
import type { TokensOf } from '../language/token';
import type { ComparisonOperator } from './predicate-ast';

export type PredicateToken = TokensOf<{
  word: string;
  string: string;
  number: number;
  /** The variable's name, without the colon. */
  variable: string;
  /** `<>` is read as `!=`. */
  operator: ComparisonOperator;
  '(': undefined;
  ')': undefined;
  ',': undefined;
  '.': undefined;
}>;

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
/** A number running straight into one of these ("12abc", "1.5.2") is malformed, not two tokens. */
const NUMBER_CONTINUATION = /[A-Za-z0-9_.]/;
const STRING_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

// No two token types start with the same character, so the order only puts the frequent first.
export const predicateLexer = new Lexer<PredicateToken>(/[ \t\n\r]+/)
  .token('word', matching(/[A-Za-z_][A-Za-z0-9_]*/, ([text]) => text))
  .token('(', exactly('('))
  .token(')', exactly(')'))
  // Two-character operators first, so `<=` is not read as `<` followed by `=`.
  .token('operator', matching(/<=|>=|!=|<>|=|<|>/, ([text]) => (text === '<>' ? '!=' : (text as ComparisonOperator))))
  .token('string', readString)
  .token('number', matching(NUMBER, ([text], offset, source, fail) => numberValue(text, offset, source, fail)))
  .token(',', exactly(','))
  .token('.', exactly('.'))
  .token(
    'variable',
    matching(/:([A-Za-z0-9_]*)/, ([, name], offset, _source, fail) => {
      if (!name) throw fail("Expected a variable name after ':'", offset);
      return name;
    }),
  );

function numberValue(text: string, offset: number, source: string, fail: ProblemAt): number {
  const end = offset + text.length;
  if (NUMBER_CONTINUATION.test(source.charAt(end))) throw fail(`Malformed number '${source.slice(offset, end + 1)}'`, offset);
  const value = Number(text);
  if (!Number.isFinite(value)) throw fail(`Number ${text} is out of range`, offset);
  return value;
}

/** A double-quoted string with JSON's backslash escapes. */
function readString(source: string, start: number, fail: ProblemAt): Lexeme<string> | undefined {
  if (source.charAt(start) !== '"') return undefined;
  let value = '';
  let position = start + 1;
  while (position < source.length) {
    const char = source.charAt(position);
    if (char === '"') return { length: position + 1 - start, value };
    if (char === '\\') {
      const escape = readEscape(source, position, fail);
      value += escape.value;
      position += escape.length;
    } else {
      value += char;
      position += 1;
    }
  }
  throw fail('Unterminated string', start, 'a closing \'"\'');
}

function readEscape(source: string, position: number, fail: ProblemAt): Lexeme<string> {
  const letter = source.charAt(position + 1);
  const simple = Object.hasOwn(STRING_ESCAPES, letter) ? STRING_ESCAPES[letter] : undefined;
  if (simple !== undefined) return { value: simple, length: 2 };
  const hex = source.slice(position + 2, position + 6);
  if (letter === 'u' && /^[0-9A-Fa-f]{4}$/.test(hex)) {
    return { value: String.fromCharCode(Number.parseInt(hex, 16)), length: 6 };
  }
  throw fail(`Invalid escape sequence '\\${letter}'`, position);
}
