import { describe, expect, it } from 'vitest';
import { characterAt, matchFirst, TokenCursor, type Lexeme, type Token, type TokenPatterns } from '../../../shared/domain/language';

type Kind = 'word' | 'number' | '<' | '<=';

/** Errors carry what the cursor told them as data, so the tests can look at them. */
class TestError extends Error {
  constructor(
    readonly column: number,
    readonly expected: string,
  ) {
    super(`${expected} at ${column}`);
  }
}

const PATTERNS: TokenPatterns<Kind> = [
  ['space', /\s+/y],
  ['<=', /<=/y],
  ['<', /</y],
  ['number', /\d+/y],
  ['word', /[a-z]+/iy],
];

function readToken(source: string, offset: number): Lexeme<Kind> {
  const match = matchFirst(PATTERNS, source, offset);
  if (!match) throw new TestError(offset + 1, `no character like '${characterAt(source, offset)}'`);
  return { kind: match.kind, length: match.text.length, ...(match.kind === 'number' ? { value: Number(match.text) } : {}) };
}

const cursor = (source: string, keywordsIgnoreCase = false) =>
  new TokenCursor<Kind>(source, {
    readToken,
    keywordsIgnoreCase,
    unexpected: (token: Token<Kind>, expected: string) => new TestError(token.column, expected),
  });

const thrown = (read: () => unknown): TestError => {
  try {
    read();
  } catch (error) {
    if (error instanceof TestError) return error;
    throw error;
  }
  throw new Error('read without an error');
};

describe('TokenCursor', () => {
  it('reads tokens with their text, 1-based column and value, skipping space, up to the end token', () => {
    const tokens = cursor('Age  <= 42');
    expect(tokens.accept('word')).toEqual({ kind: 'word', text: 'Age', column: 1, value: 'Age' });
    expect(tokens.accept('<=')).toEqual({ kind: '<=', text: '<=', column: 6, value: '<=' });
    expect(tokens.accept('number')).toEqual({ kind: 'number', text: '42', column: 9, value: 42 });
    expect(tokens.peek()).toEqual({ kind: 'end', text: '', column: 11, value: '' });
  });

  it('tries the patterns in order: the first that matches wins', () => {
    const tokens = cursor('<=<');
    expect([tokens.accept('<=')?.text, tokens.accept('<')?.text, tokens.peek().kind]).toEqual(['<=', '<', 'end']);
  });

  it('takes a token only when it is the kind asked for', () => {
    const tokens = cursor('a 1');
    expect(tokens.accept('number')).toBeUndefined();
    expect(tokens.expect('word', 'a word').text).toBe('a');
    expect(thrown(() => tokens.expect('<', "'<'"))).toMatchObject({ column: 3, expected: "'<'" });
  });

  it('reads keywords as words, in their case or in any case as the language says', () => {
    expect(cursor('AND').acceptKeyword('and')).toBeUndefined();
    expect(cursor('AND', true).acceptKeyword('and')?.text).toBe('AND');
    expect(cursor('1', true).acceptKeyword('1')).toBeUndefined();
    expect(thrown(() => cursor('or').expectKeyword('and', "'and'"))).toMatchObject({ column: 1, expected: "'and'" });
  });

  it('never moves past the end', () => {
    const tokens = cursor('1');
    tokens.accept('number');
    expect(tokens.accept('end')?.kind).toBe('end');
    expect(tokens.expect('end', 'the end').column).toBe(2);
    expect(thrown(() => tokens.fail('more'))).toMatchObject({ column: 2, expected: 'more' });
  });

  it('gives back the source text between two tokens as written', () => {
    const tokens = cursor('a  <  1 b');
    const first = tokens.expect('word', 'a word');
    tokens.accept('<');
    expect(tokens.textBetween(first, tokens.expect('number', 'a number'))).toBe('a  <  1');
  });

  it('reads the whole source first, so a stray character is reported before any grammar error', () => {
    expect(thrown(() => cursor('< < ? !'))).toMatchObject({ column: 5 });
    expect(thrown(() => cursor('a 😀'))).toMatchObject({ expected: "no character like '😀'" });
  });

  it('refuses a reader that reads nothing, which would never end', () => {
    expect(() => new TokenCursor<Kind>('a', { readToken: () => ({ kind: 'word', length: 0 }), keywordsIgnoreCase: false, unexpected: () => new Error() })).toThrow(
      /read nothing/,
    );
  });
});
