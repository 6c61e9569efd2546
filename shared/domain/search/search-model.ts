/**
 * One search, as both search endpoints build it and the engine answers it: GET …/searchApiPattern
 * (its parameters compile to this) and POST …/search (commercetools' Product Search request over
 * this resource). Everything here is checked: fields exist, values fit their field, bounds hold;
 * the engine's adapter meets no 400 case. The reference evaluator (test/support/search-reference)
 * holds the engine to the meaning written here.
 */
import type { Field } from './field-catalog';

/**
 * A value as search compares it: a number for number fields, epoch milliseconds for date-time
 * fields (instants: offsets and precision as `where` reads them), the text itself for text fields.
 * A resource's values are `searchValuesAt` (document-values.ts); `searchValueOf` reads one.
 */
export type SearchValue = number | string;

export interface SearchRequest {
  /** Restricts the results, and what the facets of scope 'query' count. None: every resource. */
  query: SearchExpression | undefined;
  /** Restricts the results only, after the facets (Product Search's `postFilter`, searchApiPattern's `filter`). */
  postFilter: SearchExpression | undefined;
  facets: readonly FacetRequest[];
  /** The order, `id` ascending last unless a key sorts by id already. Empty: by score when the query scores (has text outside `filter` and `not`), then id; else by id. */
  sort: readonly SearchSort[];
  page: { limit: number; offset: number; withTotal: boolean };
}

export type SearchSort =
  /** Relevance: see `text`. */
  | { by: 'score'; direction: 1 | -1 }
  /**
   * A field's values reduced to one per resource by `mode` (min, max, the mean or the sum of its
   * values, each value as often as the resource holds it); resources without a value come last
   * in either direction. `avg` and `sum` apply to number fields only. searchApiPattern's `sort`
   * is min ascending, max descending.
   */
  | { by: 'field'; field: Field; direction: 1 | -1; mode: 'min' | 'max' | 'avg' | 'sum' };

/**
 * A resource's values at a field are those `valuesAt` reads (document-values.ts: arrays flattened,
 * null and absent give none), of the field's kind; a field's kind is the schema's (field-catalog.ts).
 */
export type SearchExpression =
  /** All of them match. Each text among them adds to the score. */
  | { kind: 'and'; of: readonly SearchExpression[] }
  /** At least one matches. Each text among them that matches adds to the score. */
  | { kind: 'or'; of: readonly SearchExpression[] }
  /** None of them matches. Adds nothing to the score. */
  | { kind: 'not'; of: readonly SearchExpression[] }
  /** All of them match, as `and`, but adds nothing to the score. */
  | { kind: 'filter'; of: readonly SearchExpression[] }
  /** Some value equals one of `values`; with `caseInsensitive`, texts compare lowercased (String.prototype.toLowerCase) on both sides. */
  | { kind: 'exact'; field: Field; values: readonly SearchValue[]; caseInsensitive: boolean }
  /** Some value lies within every given bound. Numbers and instants compare numerically, texts by code point (PostgreSQL's "C" collation). */
  | { kind: 'range'; field: Field; gt?: SearchValue; gte?: SearchValue; lt?: SearchValue; lte?: SearchValue }
  /** The field holds a value of any kind (an object or array element counts). */
  | { kind: 'exists'; field: Field }
  /** Some text value starts with `value` (lowercased both sides with `caseInsensitive`). */
  | { kind: 'prefix'; field: Field; value: string; caseInsensitive: boolean }
  /**
   * Some whole text value matches `pattern`: `*` any run of characters (none included), `?` one
   * character (code point); every other character itself. Lowercased both sides with `caseInsensitive`.
   */
  | { kind: 'wildcard'; field: Field; pattern: string; caseInsensitive: boolean }
  | TextExpression;

/**
 * Full text. A resource's words are the tokens (`tokenize`, text-match.ts: case and accents folded)
 * of its strings at `field` (a text field), or of every string it holds when there is no field. A
 * term matches a word when
 *   - the word is the term, or
 *   - `edits` > 0 and the word is within that many edits of the term (`isWithinEditDistance`), or
 *   - `language` names a stemmer (`stemmerOf`), the term is no prefix, both are `isStemmable` and
 *     the word's stem in that language (PostgreSQL's `ts_lexize`; a stop word has none) is the
 *     term's stem, or
 *   - the term is a `prefix` and the word starts with it.
 * Words longer than MAX_WORD_LENGTH characters match only exactly.
 * `all`: every term matches some word; `any`: at least one does.
 * Score: how often the resource holds words that match a term of a text expression that scores
 * (the query's, outside `filter` and `not`; a word at the expression's field when it has one),
 * divided by 1 + ln(1 + the count of all its words) (ts_rank's length normalisation); ties by id.
 */
export interface TextExpression {
  kind: 'text';
  field: Field | undefined;
  terms: readonly TextTerm[];
  mustMatch: 'all' | 'any';
  /** The locale as given (`en`, `de-DE`); stemming applies only where `stemmerOf` knows its language. */
  language: string | undefined;
}

/** The text expressions of a query that score: those outside `filter` and `not`. */
export function scoringTexts(query: SearchExpression | undefined): TextExpression[] {
  if (query === undefined) return [];
  if (query.kind === 'text') return [query];
  return query.kind === 'and' || query.kind === 'or' ? query.of.flatMap(scoringTexts) : [];
}

export interface TextTerm {
  /** One token, analysed as the resource's words are. */
  word: string;
  /** Edits allowed (0, 1 or 2): never more than `defaultFuzzyLevel(word)`. */
  edits: number;
  /** Matches words starting with it (fullTextPrefix's last term). */
  prefix: boolean;
}

/**
 * A facet counts resources in its base: those the query matches (scope 'query') or every resource
 * of the project ('all'), and its `filter`. `postFilter` never restricts a facet.
 */
export type FacetRequest =
  /**
   * Resources per distinct value at the field (a resource counts once per distinct value it holds),
   * at most `limit` buckets, in `order` (count: ties by value ascending; value: numbers and instants
   * numerically, texts by code point), only the `includes` values (those held) when given.
   * `missing`: resources of the base without a value, bucketed under this key (Product Search).
   */
  | { kind: 'distinct'; name: string; field: Field; scope: FacetScope; filter?: SearchExpression; limit: number; order: { by: 'count' | 'value'; direction: 1 | -1 }; includes?: readonly SearchValue[]; missing?: string }
  /** Per range (`from` included, `to` excluded, either open): resources with a value in it, and its values' count, sum, min and max. */
  | { kind: 'ranges'; name: string; field: Field; scope: FacetScope; filter?: SearchExpression; ranges: readonly FacetRangeBounds[] }
  /** Resources in the base. */
  | { kind: 'count'; name: string; scope: FacetScope; filter?: SearchExpression }
  /** The field's values over the base, each as often as a resource holds it: count, min, max, and for numbers their sum. */
  | { kind: 'stats'; name: string; field: Field; scope: FacetScope; filter?: SearchExpression };

export type FacetScope = 'query' | 'all';

export interface FacetRangeBounds {
  from?: SearchValue;
  to?: SearchValue;
  /** The bucket's key in Product Search's answer; default `<from>-<to>` with `*` for an open end. */
  key?: string;
}

/**
 * What the engine counts for each facet, in the request's order; each endpoint writes its own answer from it. Distinct:
 * the buckets asked for, in order (`count`: resources holding the value); `missing`: resources of the base holding no
 * value at the field; `total`: the sum of every distinct value's count, listed or not; `other`: that of those not listed.
 */
export type FacetCounts =
  | { kind: 'distinct'; buckets: readonly { value: SearchValue; count: number }[]; missing: number; total: number; other: number }
  | { kind: 'ranges'; ranges: readonly RangeCounts[] }
  | { kind: 'count'; count: number }
  | { kind: 'stats'; count: number; min?: SearchValue; max?: SearchValue; sum?: number };

export interface RangeCounts {
  /** Resources with at least one value in the range. */
  resources: number;
  /** Values in the range, over those resources, each as often as held; their sum, least and greatest (numbers and instants). */
  values: number;
  sum: number;
  min: number | undefined;
  max: number | undefined;
}

/** The engine's answer: the page's ids in order, the total (when asked), the facets' counts in the request's order. */
export interface SearchHits {
  ids: string[];
  total?: number;
  facets: readonly FacetCounts[];
}
