import type pg from 'pg';
import {
  isStemmable,
  isWithinEditDistance,
  letters,
  MAX_WORD_LENGTH,
  stemmerOf,
  type FacetCounts,
  type FacetRequest,
  type SearchExpression,
  type SearchHits,
  type SearchRequest,
  type SearchValue,
  type TextExpression,
  type TextTerm,
} from '../../domain/search';
import type { SearchIndex } from '../search-index';
import { answeredBy, isUnanswered } from './engine-errors';
import { fuzzyCandidates, indexedWord, stemmedWords } from './search-schema';
import { baseOf, SearchSql, Statement, type TermWords } from './search-sql';
import { inTransaction } from './transaction';

type Run = <R extends pg.QueryResultRow>(statement: Statement) => Promise<R[]>;
type FacetRow = Record<string, SearchValue | boolean | null>;
type Count = (where: readonly (SearchExpression | undefined)[]) => Promise<number>;

/**
 * For the search's transaction only: a read by index costs about a sequential one (SSD, a cached working set), so a
 * few matches are looked up by their index rather than found by scanning the project; grouping a facet's values may
 * take more than the default 4 MB.
 */
const BEGIN = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL work_mem = '64MB'; SET LOCAL random_page_cost = 1.1`;

/**
 * Searches in PostgreSQL: first the words each term matches (its fuzzy and stem candidates, from
 * the project's dictionary), then the statements of search-sql.ts: the page's ids, the total,
 * one per facet (and the count of a facet's base where it lists values). One connection, one
 * snapshot.
 */
export class PostgresSearchIndex implements SearchIndex {
  constructor(private readonly pool: pg.Pool) {}

  search(projectKey: string, request: SearchRequest): Promise<SearchHits> {
    // A connection that failed to answer is closed, not handed to the next search.
    return answeredBy(() =>
      inTransaction(this.pool, BEGIN, isUnanswered, async (client) => {
        // Each statement's longest run is the pool's (shared/aws/postgres.ts), below the request's deadline.
        const run: Run = async <R extends pg.QueryResultRow>(statement: Statement) => (await client.query<R>(statement.text, statement.values)).rows;
        return answer(run, new SearchSql(projectKey, await termWords(run, projectKey, request)), request);
      }),
    );
  }
}

async function answer(run: Run, sql: SearchSql, request: SearchRequest): Promise<SearchHits> {
  const { page } = request;
  const counts = new Map<string, Promise<number>>();
  const keyOf = (where: readonly (SearchExpression | undefined)[]) => JSON.stringify(where.filter((expression) => expression !== undefined));
  const count: Count = (where) => {
    const key = keyOf(where);
    if (!counts.has(key)) counts.set(key, run<{ count: number }>(sql.count(where)).then(([row]) => row!.count));
    return counts.get(key)!;
  };
  const ids = (await run<{ id: string }>(sql.page(request))).map((row) => row.id);
  const results = [request.query, request.postFilter];
  // A page that is not full, and not past the end, tells the total itself.
  if (ids.length < page.limit && (ids.length > 0 || page.offset === 0)) counts.set(keyOf(results), Promise.resolve(page.offset + ids.length));
  const total = page.withTotal ? await count(results) : undefined;
  const facets: FacetCounts[] = [];
  for (const facet of request.facets) facets.push(await facetCounts(run, sql, request, facet, count));
  return { ids, ...(total === undefined ? {} : { total }), facets };
}

async function facetCounts(run: Run, sql: SearchSql, request: SearchRequest, facet: FacetRequest, count: Count): Promise<FacetCounts> {
  if (facet.kind === 'count') return { kind: 'count', count: await count(baseOf(request, facet)) };
  const rows = await run<FacetRow>(sql.facet(request, facet));
  const figure = (row: FacetRow | undefined, name: string) => (row?.[name] ?? undefined) as number | undefined;
  if (facet.kind === 'stats') {
    const [row] = rows;
    const [min, max, sum] = [row!.min as SearchValue | null, row!.max as SearchValue | null, figure(row, 'sum')];
    return { kind: 'stats', count: figure(row, 'count')!, ...(min === null ? {} : { min: min! }), ...(max === null ? {} : { max: max! }), ...(sum === undefined ? {} : { sum }) };
  }
  if (facet.kind === 'ranges') {
    const [row] = rows;
    const ranges = facet.ranges.map((_, index) => {
      const at = (name: string) => figure(row, `${name}_${index}`);
      return { resources: at('resources')!, values: at('values')!, sum: at('sum')!, min: at('min'), max: at('max') };
    });
    return { kind: 'ranges', ranges };
  }
  const sum = (of: FacetRow[], name: string) => of.reduce((total, row) => total + figure(row, name)!, 0);
  const whole = rows.filter((row) => row.whole);
  const buckets = rows.filter((row) => !row.whole).map((row) => ({ value: row.value as SearchValue, count: figure(row, 'count')! }));
  const [total, withValue, listed] = [sum(whole, 'count'), sum(whole, 'resources'), sum(buckets, 'count')];
  return { kind: 'distinct', buckets, missing: (await count(baseOf(request, facet))) - withValue, total, other: total - listed };
}

/**
 * The words each term of the request matches: itself, and the dictionary's fuzzy candidates within
 * its edits and words of its stem (search-schema.ts), all terms' in one statement; a prefix reads
 * its range of words in the postings directly.
 */
async function termWords(run: Run, projectKey: string, request: SearchRequest): Promise<Map<TextTerm, TermWords>> {
  const terms = textsOf(request).flatMap((text) => text.terms.map((term) => ({ term, language: text.language })));
  const statement = new Statement();
  const [bind, project] = [(value: unknown) => statement.bind(value), statement.bind(projectKey)];
  const lookups = terms.flatMap(({ term, language }, index) => {
    const dictionary = term.prefix ? undefined : stemmerOf(language);
    const found = [
      ...(term.edits > 0 && isMatchable(term) ? [fuzzyCandidates(bind, project, term.word, term.edits)] : []),
      ...(dictionary !== undefined && isStemmable(term.word) ? [stemmedWords(bind, project, term.word, dictionary)] : []),
    ];
    return found.map((lookup) => `SELECT ${index} AS term, word, fuzzy FROM (${lookup}) AS found`);
  });
  const words = terms.map(({ term }) => new Set([indexedWord(term.word)]));
  if (lookups.length > 0) {
    statement.text = lookups.join(' UNION ALL ');
    for (const row of await run<{ term: number; word: string; fuzzy: boolean }>(statement)) {
      const { term } = terms[row.term]!;
      if (!row.fuzzy || isWithinEditDistance(letters(term.word), letters(row.word), term.edits)) words[row.term]!.add(row.word);
    }
  }
  return new Map(terms.map(({ term }, index) => [term, { words: [...words[index]!], ...(term.prefix && isMatchable(term) ? { prefix: term.word } : {}) }]));
}

/** Words longer than MAX_WORD_LENGTH match only exactly. */
const isMatchable = (term: TextTerm) => letters(term.word).length <= MAX_WORD_LENGTH;

/** Every text expression of the request: its query's, its post-filter's and its facets' filters'. */
function textsOf(request: SearchRequest): TextExpression[] {
  const within = (expression: SearchExpression | undefined): TextExpression[] => {
    if (expression === undefined) return [];
    if (expression.kind === 'text') return [expression];
    return 'of' in expression ? expression.of.flatMap(within) : [];
  };
  return [request.query, request.postFilter, ...request.facets.map((facet) => facet.filter)].flatMap(within);
}
