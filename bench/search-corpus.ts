import type { Resource } from '../shared/domain/resource';
import { creationOrderedId } from '../shared/domain/resource-id';

/**
 * The resources a project of `size` is seeded with, and the searches whose answers their
 * frequencies fix: every word and number of a resource is chosen so that a shape's result count is
 * known at any size (a page's worth, a fixed share, or the whole project).
 *
 * - `dog` / `cat`: every other resource (half the project each).
 * - a page word: `size / PAGE` words, each carried by exactly PAGE resources spread over the whole
 *   creation order; 8 letters, any two differing in at least 5 of them, so that a misspelt one
 *   (1 edit) finds its own PAGE resources and, at most fuzzy levels, no others (the report shows
 *   each search's total).
 * - `arrayOfIntExample`: `index % 97` and `100 + index % 13` (few distinct terms: a facet over the
 *   whole project), and RARE_INT on PAGE resources.
 * - `arrayOfUniqueIntExample`: the index (a narrow range selects as many resources as it spans).
 * - `arrayOfFloatExample`: spread over 0–100 (a range facet over the whole project).
 */
export const PAGE = 20;
export const RARE_INT = 424_242;
/** Seeded resources are created one second apart, from here on. */
const SEED_EPOCH = Date.UTC(2025, 0, 1);

export const createdAtOf = (index: number) => new Date(SEED_EPOCH + index * 1000).toISOString();
export const keyOf = (index: number) => `k-${String(index).padStart(7, '0')}`;
const pageWordCount = (size: number) => Math.max(1, Math.floor(size / PAGE));

/** 23 letters: a prime number of them, so that words can be a Reed–Solomon code over GF(23). */
const LETTERS = 'abcdefghijklmnoprstuvwy';
/** A fixed shuffle of the letters per position, so that no word is another shifted by a letter. */
const ALPHABETS = Array.from({ length: 8 }, (_, position) => {
  const letters = [...LETTERS];
  let state = position + 1;
  for (let index = letters.length - 1; index > 0; index--) {
    state = (Math.imul(state, 48_271) >>> 0) % 2_147_483_647;
    const other = state % (index + 1);
    [letters[index], letters[other]] = [letters[other]!, letters[index]!];
  }
  return letters;
});

/**
 * Word `n` (n < 23^4): the polynomial whose coefficients are n's four base-23 digits, evaluated at
 * 1…8, each value a letter of its position's alphabet. Two distinct words then differ in at least
 * 5 of their 8 letters.
 */
export function pageWord(n: number): string {
  const digits = [0, 1, 2, 3].map((position) => Math.floor(n / 23 ** position) % 23);
  return ALPHABETS.map((alphabet, position) => alphabet[digits.reduce((sum, digit, power) => sum + digit * (position + 1) ** power, 0) % 23]).join('');
}

/** One edit away: the fourth letter replaced by x, a letter no word has. */
export const misspelt = (word: string) => `${word.slice(0, 3)}x${word.slice(4)}`;

/** The page word the resource at `index` carries. */
export const pageWordOf = (index: number, size: number) => pageWord(index % pageWordCount(size));

/** The resource at `index` of a project of `size`, as the store would have written it. */
export function corpusResource(index: number, size: number): Resource {
  const createdAt = createdAtOf(index);
  const arrayOfIntExample = [index % 97, 100 + (index % 13)];
  // PAGE resources carry the rare number, spread like the page words.
  if (index % pageWordCount(size) === 7 % pageWordCount(size)) arrayOfIntExample.push(RARE_INT);
  return {
    id: creationOrderedId(createdAt),
    key: keyOf(index),
    version: 1,
    createdAt,
    lastModifiedAt: createdAt,
    objectTypeProperty: {
      arrayOfIntExample,
      arrayOfUniqueIntExample: [index],
      arrayOfTwonumbersExample: [index, index / 2],
      arrayOfFloatExample: [((index * 7919) % 10_000) / 100],
      arrayOfStringExample: [index % 2 ? 'dog' : 'cat', pageWordOf(index, size)],
      arrayOfObjectType: [{ integerExample: index % 64_650, integerExampleInt32: index }],
    },
  };
}

/** A search of the corpus: its path under the resource collection of a project of `size`, how many resources it matches there, and the bound on its ratio to a read by key. */
export interface SearchShape {
  name: string;
  path: (size: number) => string;
  matches: (size: number) => number;
  goalRatio?: number;
}

const search = (parameters: string) => `/searchApiPattern?${parameters}`;
const q = encodeURIComponent;
const middle = (size: number) => Math.floor(size / 2);
const word = (size: number) => pageWordOf(middle(size), size);
const intField = 'objectTypeProperty.arrayOfIntExample';

/**
 * Searches (GET /{projectKey}/resource/searchApiPattern) of the corpus, answered by the search
 * engine: those that select a page's worth are held to 3× a read by key, those that count the
 * whole project to 10×.
 */
export const SEARCH_SHAPES: SearchShape[] = [
  { name: `search, text: a word of ${PAGE} resources, total`, path: (size) => search(`text.en=${word(size)}&limit=20`), matches: () => PAGE, goalRatio: 3 },
  { name: `search, filter: a number of ${PAGE} resources, total`, path: () => search(`filter=${q(`${intField}:${RARE_INT}`)}&limit=20`), matches: () => PAGE, goalRatio: 3 },
  {
    name: `search, filter: a range of ${PAGE} numbers, total`,
    path: (size) => search(`filter=${q(`objectTypeProperty.arrayOfUniqueIntExample:range(${middle(size)} to ${middle(size) + PAGE - 1})`)}&limit=20`),
    matches: () => PAGE,
    goalRatio: 3,
  },
  { name: 'search, fuzzy: a misspelt word (default level), total', path: (size) => search(`text.en=${misspelt(word(size))}&fuzzy=true&limit=20`), matches: () => PAGE, goalRatio: 3 },
  { name: 'search, fuzzy: a misspelt word, fuzzyLevel=1, total', path: (size) => search(`text.en=${misspelt(word(size))}&fuzzy=true&fuzzyLevel=1&limit=20`), matches: () => PAGE, goalRatio: 3 },
  { name: 'search, term facet and total over the project', path: () => search(`facet=${q(intField)}&limit=20`), matches: (size) => size, goalRatio: 10 },
  {
    name: 'search, range facet and total over the project',
    path: () => search(`facet=${q('objectTypeProperty.arrayOfFloatExample:range(* to 25), (25 to 50), (50 to 75), (75 to *)')}&limit=20`),
    matches: (size) => size,
    goalRatio: 10,
  },
  { name: 'search, text: a word of half the project, sort=createdAt desc, limit 20', path: () => search('text.en=dog&sort=createdAt desc&limit=20&withTotal=false'), matches: (size) => size / 2 },
];
