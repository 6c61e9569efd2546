import type pg from 'pg';
import type { SortKey } from '../../domain/query';
import {
  facetRange,
  isWithinEditDistance,
  letters,
  maxEditsOf,
  termFacetResult,
  type FacetRequest,
  type FacetResult,
  type FieldFilter,
  type NumberRange,
  type SearchRequest,
} from '../../domain/search';
import type { SearchHits, SearchIndex, SearchPage } from '../search-index';
import { answeredBy, isUnanswered } from './engine-errors';
import { TEXT_PREFIX_LENGTH } from './search-schema';
import { digitsOf, indexedWord, MAX_WORD_LENGTH, signatureOf } from './text-search';

/** Each statement's longest wait: below the request's deadline, which answers 503 past it anyway. */
const STATEMENT_TIMEOUT_MS = 5_000;

/**
 * Searches in PostgreSQL (tables: search-schema.ts). A search is a few statements on one
 * connection, each built from the same conditions on `search_resources r`: the page's ids, the
 * total, and one per facet. Every value is a bound parameter; the SQL text holds only what this
 * file writes.
 */
export class PostgresSearchIndex implements SearchIndex {
  constructor(private readonly pool: pg.Pool) {}

  search(projectKey: string, request: SearchRequest, page: SearchPage): Promise<SearchHits> {
    return answeredBy(async () => {
      const client = await this.pool.connect();
      let failure: unknown;
      try {
        // One snapshot for the page, the total and the facets. For this transaction only: a common
        // word's postings are grouped by resource in memory (more than the default 4 MB), and a read by index
        // costs about a sequential one (SSD, a cached working set), so a few matches are looked up
        // by their index rather than found by scanning the project.
        await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL work_mem = '64MB'; SET LOCAL random_page_cost = 1.1`);
        const run = async <R extends pg.QueryResultRow>(statement: Statement) =>
          (await client.query<R>({ text: statement.text, values: statement.values, query_timeout: STATEMENT_TIMEOUT_MS } as pg.QueryConfig)).rows;
        const count = async (scope: Scope, filters: readonly FieldFilter[]) => Number((await run<{ count: string }>(countStatement(scope, filters)))[0]!.count);
        const scope: Scope = { projectKey, text: await textQuery(run, projectKey, request) };
        const results = [...request.queryFilters, ...request.resultFilters];
        const facetBase = [...request.queryFilters, ...request.facetFilters];
        const ids = (await run<{ id: string }>(pageStatement(scope, results, page))).map((row) => row.id);
        // A page that is not full, and not past the end, tells the total itself.
        const pageTells = ids.length < page.limit && (ids.length > 0 || page.offset === 0);
        const total = page.withTotal ? (pageTells ? page.offset + ids.length : await count(scope, results)) : undefined;
        let baseCount: Promise<number> | undefined;
        const facetBaseCount = () => (baseCount ??= total !== undefined && request.resultFilters.length === 0 && request.facetFilters.length === 0 ? Promise.resolve(total) : count(scope, facetBase));
        const facets: Record<string, FacetResult> = {};
        for (const facet of request.facets) facets[facet.name] = await facetOf(run, scope, facetBase, facet, facetBaseCount);
        await client.query('COMMIT');
        return { ids, ...(total === undefined ? {} : { total }), facets };
      } catch (error) {
        failure = error;
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        // A connection that failed to answer is closed, not handed to the next search.
        client.release(failure !== undefined && isUnanswered(failure));
      }
    });
  }
}

type Run = <R extends pg.QueryResultRow>(statement: Statement) => Promise<R[]>;

/** What every condition of a search shares: its project and its text, one group of words per term (undefined: no text). */
interface Scope {
  projectKey: string;
  text: string[][] | undefined;
}

/** SQL text with its parameters: `bind` adds a value and answers its placeholder. */
class Statement {
  readonly values: unknown[] = [];
  text = '';

  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The search's text as groups of words, one per term: the term itself, or (fuzzy) any word of the
 * project's dictionary within the term's edits. An edit changes a word's length and its count of
 * digits by at most one, so the index reads only words near the term in both; of those, the
 * characters they hold (signatureOf) then Levenshtein distance (at most twice the edits: a swap
 * costs two there) pick candidates, cheapest test first. The exact rule, a swap counting one edit,
 * is the domain's.
 */
async function textQuery(run: Run, projectKey: string, request: SearchRequest): Promise<string[][] | undefined> {
  const { terms } = request.text;
  if (terms.length === 0) return undefined;
  const groups: string[][] = [];
  for (const term of terms) {
    const edits = maxEditsOf(term, request.text);
    const termLetters = letters(term);
    const group = [indexedWord(term)];
    if (edits > 0 && termLetters.length <= MAX_WORD_LENGTH) {
      const statement = new Statement();
      const lengths = Array.from({ length: 2 * edits + 1 }, (_, offset) => termLetters.length - edits + offset);
      const digits = digitsOf(term);
      statement.text = `SELECT word FROM search_words
        WHERE project_key = ${statement.bind(projectKey)} AND length = ANY(${statement.bind(lengths)}::int[])
          AND digits BETWEEN ${statement.bind(digits - edits)} AND ${statement.bind(digits + edits)}
          AND CASE WHEN bit_count((signature # ${statement.bind(signatureOf(term))}::bigint)::bit(64)) <= ${statement.bind(2 * edits)}
            THEN levenshtein_less_equal(word, ${statement.bind(term)}, ${statement.bind(2 * edits)}) <= ${statement.bind(2 * edits)} ELSE false END`;
      for (const { word } of await run<{ word: string }>(statement)) {
        if (word !== term && isWithinEditDistance(termLetters, letters(word), edits)) group.push(word);
      }
    }
    groups.push(group);
  }
  return groups;
}

/**
 * `FROM … WHERE …` of the resources that match the text and all the filters, as `r`. With text,
 * the resources come from the postings of its words, with `t.occurrences` of them (relevance):
 * one pass over the words' postings, each term's group held by a `bool_or`.
 */
function matching(statement: Statement, scope: Scope, filters: readonly FieldFilter[]): string {
  const project = statement.bind(scope.projectKey);
  const conditions = [`r.project_key = ${project}`, 'NOT r.deleted', ...filters.map((filter) => filterCondition(statement, project, filter))];
  if (scope.text === undefined) return `FROM search_resources r WHERE ${conditions.join(' AND ')}`;
  const everyTerm = scope.text.map((words) => `bool_or(p.word = ANY(${statement.bind(words)}::text[]))`).join(' AND ');
  const matches = `SELECT p.seq, sum(p.occurrences) AS occurrences FROM search_postings p
    WHERE p.project_key = ${project} AND p.word = ANY(${statement.bind(scope.text.flat())}::text[]) GROUP BY p.seq HAVING ${everyTerm}`;
  return `FROM (${matches}) AS t JOIN search_resources r ON r.seq = t.seq WHERE ${conditions.join(' AND ')}`;
}

/**
 * A filter on `r`: whether the resource holds (exists), holds no (missing), or holds a matching
 * value at the field. The project is named again so that the value indexes, which lead with it,
 * can find the matching values first.
 */
function filterCondition(statement: Statement, project: string, { field, condition }: FieldFilter): string {
  const values = `SELECT 1 FROM search_values v WHERE v.project_key = ${project} AND v.seq = r.seq AND v.field = ${statement.bind(field.path)}`;
  switch (condition.kind) {
    case 'exists':
      return `EXISTS (${values})`;
    case 'missing':
      return `NOT EXISTS (${values})`;
    case 'values': {
      const column = field.kind === 'number' ? 'number' : 'text';
      const alternatives = condition.items.map((item) => {
        if (item.kind === 'term') return valueComparison(statement, column, '=', item.value);
        const ends = [
          ...(item.from ? [valueComparison(statement, column, '>=', item.from.value)] : []),
          ...(item.to ? [valueComparison(statement, column, '<=', item.to.value)] : []),
        ];
        return ends.length === 0 ? `v.${column} IS NOT NULL` : ends.join(' AND ');
      });
      return `EXISTS (${values} AND ((${alternatives.join(') OR (')})))`;
    }
  }
}

/** `v.number op $n`, or for texts the same on the indexed prefix too (a prefix orders as its text does). */
function valueComparison(statement: Statement, column: 'number' | 'text', operator: '=' | '>=' | '<=', value: number | string): string {
  if (column === 'number') return `v.number ${operator} ${statement.bind(value)}::float8`;
  const bound = statement.bind(value);
  return `v.prefix ${operator} left(${bound}::text, ${TEXT_PREFIX_LENGTH}) AND v.text ${operator} ${bound}::text`;
}

function pageStatement(scope: Scope, filters: readonly FieldFilter[], page: SearchPage): Statement {
  const statement = new Statement();
  const from = matching(statement, scope, filters);
  const order = orderOf(statement, scope, page.sort);
  statement.text = `SELECT r.id ${from} ORDER BY ${order} LIMIT ${statement.bind(page.limit)} OFFSET ${statement.bind(page.offset)}`;
  return statement;
}

function countStatement(scope: Scope, filters: readonly FieldFilter[]): Statement {
  const statement = new Statement();
  statement.text = `SELECT count(*) ${matching(statement, scope, filters)}`;
  return statement;
}

/**
 * The sort keys in SQL: a field's smallest value ascending, its largest descending; resources
 * without one last either way. No keys: relevance with text, then id.
 */
function orderOf(statement: Statement, scope: Scope, keys: readonly SortKey[]): string {
  if (keys.length === 0) return scope.text === undefined ? 'r.id' : `${RELEVANCE} DESC, r.id`;
  return keys.map((key) => `${sortValue(statement, key)} ${key.direction > 0 ? 'ASC' : 'DESC'} NULLS LAST`).join(', ');
}

/**
 * How often the resource holds the words searched for (any of a fuzzy term's), damped by its
 * length: ts_rank's term frequency with its length normalisation (rank / (1 + ln length)).
 */
const RELEVANCE = 't.occurrences::float8 / (1 + ln(1 + r.word_count))';

function sortValue(statement: Statement, key: SortKey): string {
  const path = key.path.join('.');
  if (path === 'id') return 'r.id';
  if (path === 'createdAt') return 'r.created_at';
  if (path === 'lastModifiedAt') return 'r.last_modified_at';
  const column = key.kind === 'number' ? 'number' : 'text';
  const aggregate = key.direction > 0 ? 'min' : 'max';
  return `(SELECT ${aggregate}(v.${column}) FROM search_values v WHERE v.seq = r.seq AND v.field = ${statement.bind(path)})`;
}

/**
 * A facet over the facet base (text, `filter.query`, `filter.facets`). Values exist only for
 * resources not deleted, so with no condition beyond the project the values are counted directly.
 */
async function facetOf(run: Run, scope: Scope, filters: readonly FieldFilter[], facet: FacetRequest, baseCount: () => Promise<number>): Promise<FacetResult> {
  if (facet.kind === 'filter') {
    const count = await run<{ count: string }>(countStatement(scope, [...filters, facet.filter]));
    return { type: 'filter', count: Number(count[0]!.count) };
  }
  const statement = new Statement();
  const column = facet.field.kind === 'number' ? 'number' : 'text';
  let values = `FROM search_values v WHERE v.project_key = ${statement.bind(scope.projectKey)} AND v.field = ${statement.bind(facet.field.path)} AND v.${column} IS NOT NULL`;
  if (scope.text !== undefined || filters.length > 0) {
    values += ` AND v.seq IN (SELECT r.seq ${matching(statement, scope, filters)})`;
  }
  if (facet.kind === 'ranges') return rangeFacet(run, statement, values, facet.ranges);
  return termFacet(run, statement, values, facet, baseCount);
}

/** Documents per distinct value, and (the row without a term) the documents with any value; missing is the rest of the base. */
async function termFacet(run: Run, statement: Statement, values: string, facet: FacetRequest & { kind: 'terms' }, baseCount: () => Promise<number>): Promise<FacetResult> {
  const column = facet.field.kind === 'number' ? 'number' : 'text';
  // A resource holds each value once (with its occurrences): a term's rows are its resources, and
  // its rows marked smallest are the resources with a value. One pass over the field's index.
  statement.text = `SELECT v.${column} AS term, count(*)::int AS count, count(*) FILTER (WHERE v.smallest)::int AS resources ${values} GROUP BY v.${column}`;
  const rows = await run<{ term: number | string; count: number; resources: number }>(statement);
  const withValue = rows.reduce((sum, row) => sum + row.resources, 0);
  const terms = rows.map((row) => ({ term: row.term, count: row.count }));
  return termFacetResult(facet.field.kind, terms, (await baseCount()) - withValue);
}

/**
 * Per range (from included, to excluded): the resources with a value in it, and its values (each
 * as often as held) with their sum, least and greatest. One pass over the field's index: a
 * resource counts once per range, at its smallest value inside it (the one whose previous value
 * is not inside, or that has none).
 */
async function rangeFacet(run: Run, statement: Statement, values: string, ranges: readonly NumberRange[]): Promise<FacetResult> {
  const columns = ranges.map((range, index) => {
    const from = range.from === undefined ? undefined : `${statement.bind(range.from)}::float8`;
    const ends = [...(from === undefined ? [] : [`v.number >= ${from}`]), ...(range.to === undefined ? [] : [`v.number < ${statement.bind(range.to)}::float8`])];
    const inRange = ends.length === 0 ? 'true' : ends.join(' AND ');
    const firstInRange = from === undefined ? 'v.smallest' : `(v.smallest OR v.previous < ${from})`;
    return [
      `count(*) FILTER (WHERE ${inRange} AND ${firstInRange}) AS documents_${index}`,
      `sum(v.occurrences) FILTER (WHERE ${inRange}) AS values_${index}`,
      `sum(v.number * v.occurrences) FILTER (WHERE ${inRange}) AS sum_${index}`,
      `min(v.number) FILTER (WHERE ${inRange}) AS min_${index}`,
      `max(v.number) FILTER (WHERE ${inRange}) AS max_${index}`,
    ].join(', ');
  });
  statement.text = `SELECT ${columns.join(', ')} ${values}`;
  const [row] = await run<Record<string, string | number | null>>(statement);
  return {
    type: 'range',
    dataType: 'number',
    ranges: ranges.map((range, index) => {
      const figure = (name: string) => Number(row?.[`${name}_${index}`] ?? 0);
      return facetRange(range, { documents: figure('documents'), values: figure('values'), sum: figure('sum'), min: figure('min'), max: figure('max') });
    }),
  };
}
