import { QueryParameters } from '../shared/domain/query-parameters';
import type { Resource } from '../shared/domain/resource';
import { resourceJsonSchema } from '../shared/domain/resource-fields';
import { creationOrderedId } from '../shared/domain/resource-id';
import { compileSearchApiPattern, FieldCatalog, type SearchExpression, type SearchRequest, type TextTerm } from '../shared/domain/search';

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

/** A search of the corpus: how it is asked, how many resources it matches in a project of `size`, and the bound on its ratio to a read by key. */
export interface SearchShape {
  name: string;
  /** Over HTTP, under the resource collection: GET …/searchApiPattern, or POST …/search with a Product Search body. */
  http: (size: number) => { method: 'GET'; path: string } | { method: 'POST'; path: string; body: object };
  /** The same search as the model holds it (what the engine alone is asked). */
  request: (size: number) => SearchRequest;
  matches: (size: number) => number;
  goalRatio?: number;
}

const q = encodeURIComponent;
const middle = (size: number) => Math.floor(size / 2);
const word = (size: number) => pageWordOf(middle(size), size);
const intField = 'objectTypeProperty.arrayOfIntExample';
/** The animal the middle page word's resources carry (they are PAGE words apart, an even number of resources). */
const animalOf = (size: number) => (middle(size) % 2 ? 'dog' : 'cat');

/** GET /{projectKey}/resource/searchApiPattern?<parameters>, and the request its parameters compile to. */
function searchApiPattern(parameters: (size: number) => string): Pick<SearchShape, 'http' | 'request'> {
  return {
    http: (size) => ({ method: 'GET', path: `/searchApiPattern?${parameters(size)}` }),
    request: (size) => {
      const entries = new Map<string, string[]>();
      for (const [name, value] of new URLSearchParams(parameters(size))) entries.set(name, [...(entries.get(name) ?? []), value]);
      return compileSearchApiPattern(new QueryParameters(entries), resourceJsonSchema());
    },
  };
}

/** POST /{projectKey}/resource/search (Product Search's request), and the request its body parses to: a first page of 20 with the total. */
function productSearch(body: (size: number) => object, query: (size: number) => SearchExpression): Pick<SearchShape, 'http' | 'request'> {
  return {
    http: (size) => ({ method: 'POST', path: '/search', body: { ...body(size), limit: 20 } }),
    request: (size) => ({ query: query(size), postFilter: undefined, facets: [], sort: [], page: { limit: 20, offset: 0, withTotal: true } }),
  };
}

const fields = new FieldCatalog(resourceJsonSchema());
const text = (...terms: TextTerm[]): SearchExpression => ({ kind: 'text', field: undefined, terms, mustMatch: 'all', language: 'en' });
const exactInt = (value: number): SearchExpression => ({ kind: 'exact', field: fields.lookup(intField)!, values: [value], caseInsensitive: false });

/**
 * Searches of the corpus, answered by the search engine: those that select a page's worth are
 * held to 3× a read by key, those that count the whole project to 10×.
 */
export const SEARCH_SHAPES: SearchShape[] = [
  { name: `search, text: a word of ${PAGE} resources, total`, ...searchApiPattern((size) => `text.en=${word(size)}&limit=20`), matches: () => PAGE, goalRatio: 3 },
  { name: `search, filter: a number of ${PAGE} resources, total`, ...searchApiPattern(() => `filter=${q(`${intField}:${RARE_INT}`)}&limit=20`), matches: () => PAGE, goalRatio: 3 },
  {
    name: `search, filter: a range of ${PAGE} numbers, total`,
    ...searchApiPattern((size) => `filter=${q(`objectTypeProperty.arrayOfUniqueIntExample:range(${middle(size)} to ${middle(size) + PAGE - 1})`)}&limit=20`),
    matches: () => PAGE,
    goalRatio: 3,
  },
  { name: 'search, fuzzy: a misspelt word (default level), total', ...searchApiPattern((size) => `text.en=${misspelt(word(size))}&fuzzy=true&limit=20`), matches: () => PAGE, goalRatio: 3 },
  { name: 'search, fuzzy: a misspelt word, fuzzyLevel=1, total', ...searchApiPattern((size) => `text.en=${misspelt(word(size))}&fuzzy=true&fuzzyLevel=1&limit=20`), matches: () => PAGE, goalRatio: 3 },
  {
    name: `search as you type: a prefix of a word of ${PAGE} resources, total`,
    ...productSearch(
      (size) => ({ query: { fullTextPrefix: { value: word(size).slice(0, 5), language: 'en' } } }),
      (size) => text({ word: word(size).slice(0, 5), edits: 0, prefix: true }),
    ),
    matches: () => PAGE,
    goalRatio: 3,
  },
  {
    name: 'search as you type: a misspelt word (fuzzy) and the prefix of a common one, total',
    ...productSearch(
      (size) => ({ query: { and: [{ fuzzy: { value: misspelt(word(size)), level: 1, language: 'en' } }, { fullTextPrefix: { value: animalOf(size).slice(0, 2), language: 'en' } }] } }),
      (size) => ({ kind: 'and', of: [text({ word: misspelt(word(size)), edits: 1, prefix: false }), text({ word: animalOf(size).slice(0, 2), edits: 0, prefix: true })] }),
    ),
    matches: () => PAGE,
    goalRatio: 3,
  },
  {
    name: 'search, compound: a word, a range and not a number, total',
    ...productSearch(
      (size) => ({
        query: {
          and: [
            { fullText: { value: word(size), language: 'en' } },
            { filter: [{ range: { field: 'objectTypeProperty.arrayOfUniqueIntExample', gte: 0 } }] },
            { not: [{ exact: { field: intField, value: RARE_INT } }] },
          ],
        },
      }),
      (size) => ({
        kind: 'and',
        of: [
          text({ word: word(size), edits: 0, prefix: false }),
          { kind: 'filter', of: [{ kind: 'range', field: fields.lookup('objectTypeProperty.arrayOfUniqueIntExample')!, gte: 0 }] },
          { kind: 'not', of: [exactInt(RARE_INT)] },
        ],
      }),
    ),
    matches: () => PAGE,
    goalRatio: 3,
  },
  {
    name: `search, compound: a word or a number (${2 * PAGE} resources), total`,
    ...productSearch(
      (size) => ({ query: { or: [{ fullText: { value: word(size), language: 'en' } }, { exact: { field: intField, value: RARE_INT } }] } }),
      (size) => ({ kind: 'or', of: [text({ word: word(size), edits: 0, prefix: false }), exactInt(RARE_INT)] }),
    ),
    matches: () => 2 * PAGE,
    goalRatio: 3,
  },
  { name: 'search, term facet and total over the project', ...searchApiPattern(() => `facet=${q(intField)}&limit=20`), matches: (size) => size, goalRatio: 10 },
  { name: 'search, term facet over a field of a value per resource (key), total', ...searchApiPattern(() => 'facet=key&limit=20'), matches: (size) => size, goalRatio: 10 },
  {
    name: 'search, range facet and total over the project',
    ...searchApiPattern(() => `facet=${q('objectTypeProperty.arrayOfFloatExample:range(* to 25), (25 to 50), (50 to 75), (75 to *)')}&limit=20`),
    matches: (size) => size,
    goalRatio: 10,
  },
  { name: 'search, text: a word of half the project, sort=createdAt desc, limit 20', ...searchApiPattern(() => 'text.en=dog&sort=createdAt desc&limit=20&withTotal=false'), matches: (size) => size / 2 },
];
