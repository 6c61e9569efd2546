import { describe, expect, it } from 'vitest';
import { defaultFuzzyLevel, isWithinEditDistance, tokenize } from '../../../shared/domain/search';
import { compileError, resource, runSearch } from './fixtures';

const alpha = resource({
  key: 'alpha',
  someProperty: 'Der schnelle braune Hund',
  objectTypeProperty: { arrayOfIntExample: [1554], arrayOfStringExample: ['dogdog', 'catcat', 'birdbird'] },
});
const beta = resource({ key: 'beta', someProperty: 'a small dog', objectTypeProperty: { arrayOfStringExample: ['dog'] } });
const gamma = resource({ key: 'gamma', objectTypeProperty: { arrayOfStringExample: ['Café crème'] } });
const delta = resource({ someProperty: 'naïve 𝒜𝒝𝒞 text', objectTypeProperty: { arrayOfStringExample: ['CAT'] } });
const docs = [alpha, beta, gamma, delta];

const keysFor = (params: Record<string, string | string[]>) => runSearch(params, docs).keys;

describe('tokenize', () => {
  it('lowercases and splits on anything that is not a letter or digit', () => {
    expect(tokenize('The quick-brown DOG, 42 times!')).toEqual(['the', 'quick', 'brown', 'dog', '42', 'times']);
  });

  it('keeps letters of any script and folds accents, composed or not', () => {
    expect(tokenize('Grüße aus Köln')).toEqual(['gruße', 'aus', 'koln']);
    for (const cafe of ['Cafe\u0301', 'café', 'CAFÉ', 'cafe']) expect(tokenize(cafe)).toEqual(['cafe']);
    expect(tokenize('東京 Москва İstanbul')).toEqual(['東京', 'москва', 'istanbul']);
  });

  it('yields nothing for text without letters or digits', () => {
    expect(tokenize(' -- !! ')).toEqual([]);
  });
});

describe('full-text search without fuzzy', () => {
  it('matches a whole token of any string, case-insensitively', () => {
    expect(keysFor({ 'text.en': 'dog' })).toEqual(['beta']);
    expect(keysFor({ 'text.en': 'DOG' })).toEqual(['beta']);
  });

  it('matches exact tokens only, not prefixes or parts of words', () => {
    expect(keysFor({ 'text.en': 'do' })).toEqual([]);
    expect(keysFor({ 'text.en': 'dogd' })).toEqual([]);
  });

  it('searches key and someProperty too', () => {
    expect(keysFor({ 'text.en': 'alpha' })).toEqual(['alpha']);
    expect(keysFor({ 'text.de': 'hund' })).toEqual(['alpha']);
  });

  it('requires every term of the text', () => {
    expect(keysFor({ 'text.en': 'small dog' })).toEqual(['beta']);
    expect(keysFor({ 'text.en': 'small cat' })).toEqual([]);
  });

  it('requires every text parameter and every repeated value', () => {
    expect(keysFor({ 'text.en': 'small', 'text.de-DE': 'dog' })).toEqual(['beta']);
    expect(keysFor({ 'text.en': 'small', 'text.de': 'hund' })).toEqual([]);
    expect(keysFor({ 'text.en': ['small', 'hund'] })).toEqual([]);
  });

  it('does not treat numbers as text', () => {
    expect(keysFor({ 'text.en': '1554' })).toEqual([]);
  });

  it('handles accents and letters outside the basic plane', () => {
    expect(keysFor({ 'text.fr': 'CAFÉ' })).toEqual(['gamma']);
    expect(keysFor({ 'text.fr': 'cafe\u0301' })).toEqual(['gamma']);
    expect(keysFor({ 'text.en': '𝒜𝒝𝒞' })).toEqual([delta['id']]);
  });

  it('lets every document through when the text has no terms', () => {
    expect(keysFor({ 'text.en': '' })).toHaveLength(4);
    expect(keysFor({ 'text.en': ' ?! ' })).toHaveLength(4);
  });

  it('lets every document through without any text parameter', () => {
    expect(keysFor({})).toHaveLength(4);
  });
});

describe('defaultFuzzyLevel', () => {
  it.each([
    ['a', 0],
    ['ab', 0],
    ['abc', 1],
    ['abcd', 1],
    ['abcde', 1],
    ['abcdef', 2],
    ['abcdefghijklmnop', 2],
  ])('gives %s the level %i', (term, level) => {
    expect(defaultFuzzyLevel(term)).toBe(level);
  });

  it('counts letters, not UTF-16 units', () => {
    expect(defaultFuzzyLevel('𝒜𝒝')).toBe(0);
    expect(defaultFuzzyLevel('𝒜𝒝𝒞')).toBe(1);
  });
});

describe('fuzzy search', () => {
  it('uses the default level of each term: 1 for 3 to 5 letters', () => {
    expect(keysFor({ 'text.en': 'dot', fuzzy: 'true' })).toEqual(['beta']);
    expect(keysFor({ 'text.en': 'smull dgo', fuzzy: 'true' })).toEqual(['beta']);
    expect(keysFor({ 'text.en': 'dxx', fuzzy: 'true' })).toEqual([]);
  });

  it('uses the default level of each term: 0 for 1 or 2 letters', () => {
    expect(keysFor({ 'text.en': 'de', fuzzy: 'true' })).toEqual([]);
    expect(keysFor({ 'text.en': 'a', fuzzy: 'true' })).toEqual(['beta']);
  });

  it('uses the default level of each term: 2 above 5 letters', () => {
    expect(keysFor({ 'text.en': 'dogdxx', fuzzy: 'true' })).toEqual(['alpha']);
    expect(keysFor({ 'text.en': 'dogxxx', fuzzy: 'true' })).toEqual([]);
  });

  it('counts a swap of neighbouring letters as one edit', () => {
    expect(keysFor({ 'text.en': 'dgo', fuzzy: 'true' })).toEqual(['beta']);
  });

  it('folds accents and case both ways', () => {
    for (const term of ['cafe', 'CAFÉ', 'café', 'creme']) expect(keysFor({ 'text.fr': term })).toEqual(['gamma']);
    expect(keysFor({ 'text.en': 'NAIVE' })).toEqual([delta['id']]);
  });

  it('uses a given fuzzyLevel at or below the default', () => {
    expect(keysFor({ 'text.en': 'dot', fuzzy: 'true', fuzzyLevel: '0' })).toEqual([]);
    expect(keysFor({ 'text.en': 'dot', fuzzy: 'true', fuzzyLevel: '1' })).toEqual(['beta']);
    expect(keysFor({ 'text.en': 'dogdxx', fuzzy: 'true', fuzzyLevel: '1' })).toEqual([]);
    expect(keysFor({ 'text.en': 'dogdxx', fuzzy: 'true', fuzzyLevel: '2' })).toEqual(['alpha']);
    expect(keysFor({ 'text.en': 'dogdox', fuzzy: 'true', fuzzyLevel: '1.0' })).toEqual(['alpha']);
  });

  it('still matches exact tokens at level 0', () => {
    expect(keysFor({ 'text.en': 'dog', fuzzy: 'true', fuzzyLevel: '0' })).toEqual(['beta']);
  });

  it('matches exactly with fuzzy=false, whatever fuzzyLevel says', () => {
    expect(keysFor({ 'text.en': 'dot', fuzzy: 'false' })).toEqual([]);
    expect(keysFor({ 'text.en': 'dot', fuzzy: 'false', fuzzyLevel: '1' })).toEqual([]);
    expect(keysFor({ 'text.en': 'dot', fuzzyLevel: '1' })).toEqual([]);
  });

  it('accepts and ignores a fuzzyLevel above the default without fuzzy=true', () => {
    expect(keysFor({ 'text.en': 'dog', fuzzyLevel: '3' })).toEqual(['beta']);
    expect(keysFor({ 'text.en': 'dog', fuzzy: 'false', fuzzyLevel: '2' })).toEqual(['beta']);
  });
});

describe('fuzzyLevel above the platform default', () => {
  it('is refused for a term of 3 to 5 letters', () => {
    expect(compileError({ 'text.en': 'dog', fuzzy: 'true', fuzzyLevel: '3' })).toEqual({
      name: 'ParameterError',
      parameter: 'fuzzyLevel',
      message: "fuzzyLevel 3 is above the platform default 1 for the term 'dog'.",
    });
    expect(compileError({ 'text.en': 'dog', fuzzy: 'true', fuzzyLevel: '2' }).message).toBe(
      "fuzzyLevel 2 is above the platform default 1 for the term 'dog'.",
    );
  });

  it('is refused for a term of 1 or 2 letters', () => {
    expect(compileError({ 'text.en': 'do', fuzzy: 'true', fuzzyLevel: '1' }).message).toBe(
      "fuzzyLevel 1 is above the platform default 0 for the term 'do'.",
    );
  });

  it('is refused for a term longer than 5 letters', () => {
    expect(compileError({ 'text.en': 'dogdog', fuzzy: 'true', fuzzyLevel: '3' }).message).toBe(
      "fuzzyLevel 3 is above the platform default 2 for the term 'dogdog'.",
    );
  });

  it('is refused when it is above the default of any one term', () => {
    const error = compileError({ 'text.en': 'dogdog', 'text.de': 'hund go', fuzzy: 'true', fuzzyLevel: '1' });
    expect(error.parameter).toBe('fuzzyLevel');
    expect(error.message).toBe("fuzzyLevel 1 is above the platform default 0 for the term 'go'.");
  });

  it('is refused above the highest default even without text', () => {
    expect(compileError({ fuzzy: 'true', fuzzyLevel: '3' }).message).toBe(
      'fuzzyLevel 3 is above the highest platform default 2.',
    );
  });
});

describe('isWithinEditDistance', () => {
  const within = (a: string, b: string, max: number) => isWithinEditDistance(Array.from(a), Array.from(b), max);

  it('counts substitutions, insertions, deletions and swaps', () => {
    expect(within('dog', 'dog', 0)).toBe(true);
    expect(within('dog', 'dot', 0)).toBe(false);
    expect(within('dog', 'dot', 1)).toBe(true);
    expect(within('dog', 'dogs', 1)).toBe(true);
    expect(within('dogs', 'dog', 1)).toBe(true);
    expect(within('dog', 'odg', 1)).toBe(true);
    expect(within('abc', 'xyz', 2)).toBe(false);
    expect(within('abc', 'xyz', 3)).toBe(true);
    expect(within('', 'ab', 2)).toBe(true);
    expect(within('', 'ab', 1)).toBe(false);
  });

  it('gives up on a length difference beyond the budget', () => {
    expect(within('a', 'abcd', 2)).toBe(false);
  });

  it('agrees with a full edit-distance table on random words', () => {
    const random = seededRandom(7);
    const word = () => Array.from({ length: Math.floor(random() * 7) }, () => 'abc'.charAt(Math.floor(random() * 3)));
    for (let run = 0; run < 3000; run++) {
      const [a, b] = [word(), word()];
      const distance = referenceDistance(a, b);
      for (let max = 0; max <= 3; max++) {
        expect(isWithinEditDistance(a, b, max), `${a.join('')} vs ${b.join('')} within ${max}`).toBe(distance <= max);
      }
    }
  });
});

/** Optimal string alignment distance, the whole table, no shortcuts. */
function referenceDistance(a: readonly string[], b: readonly string[]): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => table[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let cost = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, at(i - 2, j - 2) + 1);
      const row = table[i];
      if (row) row[j] = cost;
    }
  }
  return at(a.length, b.length);
}

function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('stemming (text.<locale> in a language PostgreSQL stems)', () => {
  // The stems PostgreSQL's english_stem gives these words; the reference looks them up as the engine asks them.
  const english: Record<string, string> = { dogs: 'dog', dog: 'dog', cats: 'cat', cat: 'cat', small: 'small', a: 'a' };
  const stems = (dictionary: string, word: string) => (dictionary === 'english_stem' ? english[word] : undefined) ?? word;
  const keys = (params: Record<string, string>) => runSearch(params, docs, stems).keys;

  it('finds the words of the term\'s stem in its language', () => {
    expect(keys({ 'text.en': 'dogs' })).toEqual(['beta']);
    expect(keys({ 'text.en-GB': 'CATS' })).toEqual([delta['id']]);
  });

  it('folds only where the language has no stemmer', () => {
    expect(keys({ 'text.ja': 'dogs' })).toEqual([]);
    expect(keys({ 'text.ja': 'dog' })).toEqual(['beta']);
  });
});
