import { describe, expect, it } from 'vitest';
import { exactly, Lexer, matching, type SyntaxErrors, type TokensOf } from '../../../shared/domain/language';

type TestToken = TokensOf<{ word: string; number: number; string: string; '<': undefined; '<=': undefined }>;

/** Errors carry the problem and offset as data, so the tests can look at them. */
class TestSyntaxError extends Error {
  constructor(
    readonly problem: string,
    readonly offset: number,
    readonly expected?: string,
  ) {
    super(`${problem} at ${offset}`);
  }
}
const errors: Pick<SyntaxErrors, 'at'> = { at: (problem, offset, expected) => new TestSyntaxError(problem, offset, expected) };

const lexer = new Lexer<TestToken>(/\s+/)
  .token('<=', exactly('<='))
  .token('<', exactly('<'))
  .token(
    'number',
    matching(/\d+/, ([text], offset, source, fail) => {
      if (/[a-z]/.test(source.charAt(offset + text.length))) throw fail(`Malformed number '${text}'`, offset, 'digits');
      return Number(text);
    }),
  )
  .token('string', (source, offset, fail) => {
    if (source.charAt(offset) !== "'") return undefined;
    const close = source.indexOf("'", offset + 1);
    if (close < 0) throw fail('Unterminated string', offset);
    return { length: close + 1 - offset, value: source.slice(offset + 1, close) };
  })
  .token('word', matching(/[a-z]+/i, ([text]) => text.toLowerCase()));

const tokenize = (source: string) => lexer.tokenize(source, errors);
const thrown = (source: string): TestSyntaxError => {
  try {
    tokenize(source);
  } catch (error) {
    return error as TestSyntaxError;
  }
  throw new Error(`${source} was read without an error`);
};

describe('Lexer', () => {
  it('reads typed tokens with their text, offset and value, and ends with the end token', () => {
    expect(tokenize("Age <= 42 'x y'")).toEqual([
      { type: 'word', text: 'Age', offset: 0, value: 'age' },
      { type: '<=', text: '<=', offset: 4, value: undefined },
      { type: 'number', text: '42', offset: 7, value: 42 },
      { type: 'string', text: "'x y'", offset: 10, value: 'x y' },
      { type: 'end', text: '', offset: 15, value: undefined },
    ]);
  });

  it('tries token types in the order they were added: the first that reads wins', () => {
    expect(tokenize('<=<').map((token) => token.type)).toEqual(['<=', '<', 'end']);
    const shortFirst = new Lexer<TestToken>(/\s+/).token('<', exactly('<')).token('<=', exactly('<='));
    expect(() => shortFirst.tokenize('<=', errors)).toThrow("Unexpected character '=' at 1");
  });

  it('skips whitespace between tokens only', () => {
    expect(tokenize('  a\t\n b  ').map((token) => [token.text, token.offset])).toEqual([
      ['a', 2],
      ['b', 6],
      ['', 9],
    ]);
    expect(tokenize('')).toEqual([{ type: 'end', text: '', offset: 0, value: undefined }]);
  });

  it('reports a character no token type reads, whole even outside the basic plane', () => {
    expect(thrown('a # b')).toMatchObject({ problem: "Unexpected character '#'", offset: 2 });
    expect(thrown('a 😀')).toMatchObject({ problem: "Unexpected character '😀'", offset: 2 });
  });

  it('lets a reader refuse a malformed token through the language error', () => {
    expect(thrown('1 23x')).toMatchObject({ problem: "Malformed number '23'", offset: 2, expected: 'digits' });
    expect(thrown("a 'open")).toMatchObject({ problem: 'Unterminated string', offset: 2 });
  });

  it('reads the whole source before anything is parsed, so the first bad character is found', () => {
    expect(thrown('< < ? !')).toMatchObject({ offset: 4 });
  });

  it('refuses a reader that reads nothing, which would never end', () => {
    const broken = new Lexer<TestToken>(/\s+/).token('word', () => ({ length: 0, value: '' }));
    expect(() => broken.tokenize('a', errors)).toThrow(/read nothing/);
  });
});
