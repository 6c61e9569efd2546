/**
 * The tokens of filter and facet expressions, e.g.
 * `objectTypeProperty.arrayOfIntExample:range(1 to *), 7` reads as the words, symbols and
 * numbers `objectTypeProperty . arrayOfIntExample : range ( 1 to * ) , 7`.
 */
import { exactly, Lexer, matching, type Lexeme, type ProblemAt } from '../language/lexer';
import type { TokensOf } from '../language/token';

export type ExpressionToken = TokensOf<{
  word: string;
  number: number;
  string: string;
  ':': undefined;
  ',': undefined;
  '(': undefined;
  ')': undefined;
  '*': undefined;
  '.': undefined;
}>;

// No two token types start with the same character, so the order only puts the frequent first.
export const expressionLexer = new Lexer<ExpressionToken>(/\s+/)
  .token('word', matching(/[\p{L}_][\p{L}\p{N}_]*/u, ([text]) => text))
  .token('.', exactly('.'))
  .token(':', exactly(':'))
  .token(',', exactly(','))
  .token('(', exactly('('))
  .token(')', exactly(')'))
  .token(
    'number',
    matching(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, ([text], offset, _source, fail) => {
      const value = Number(text);
      if (!Number.isFinite(value)) throw fail(`The number ${text} is too large`, offset);
      return value;
    }),
  )
  .token('string', readString)
  .token('*', exactly('*'));

/** A double-quoted string; a backslash takes the next character literally. */
function readString(source: string, start: number, fail: ProblemAt): Lexeme<string> | undefined {
  if (source.charAt(start) !== '"') return undefined;
  let value = '';
  for (let index = start + 1; index < source.length; index++) {
    const char = source.charAt(index);
    if (char === '"') return { length: index + 1 - start, value };
    if (char === '\\') index++;
    value += source.charAt(index);
  }
  throw fail('Unterminated string: a closing \'"\' is missing', start);
}
