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
import { answeredBy } from './engine-errors';
import { TEXT_PREFIX_LENGTH } from './search-schema';
import { indexedWord, MAX_WORD_LENGTH } from './text-search';

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
      try {
        // One snapshot for the page, the total and the facets.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const run = async <R extends pg.QueryResultRow>(statement: Statement) =>
          (await client.query<R>({ text: statement.text, values: statement.values, query_timeout: STATEMENT_TIMEOUT_MS } as pg.QueryConfig)).rows;
        const text = await textQuery(run, projectKey, request);
        const scope: Scope = { projectKey, text };
        const results = [...request.queryFilters, ...request.resultFilters];
        const facetBase = [...request.queryFilters, ...request.facetFilters];
        const ids = (await run<{ id: string }>(pageStatement(scope, results, page))).map((row) => row.id);
        const total = page.withTotal ? Number((await run<{ count: string }>(countStatement(scope, results)))[0]!.count) : undefined;
        const facets: Record<string, FacetResult> = {};
        for (const facet of request.facets) facets[facet.name] = await facetOf(run, scope, facetBase, facet);
        await client.query('COMMIT');
        return { ids, ...(total === undefined ? {} : { total }), facets };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
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
 * project's dictionary within the term's edits. The dictionary finds candidates by length and Levenshtein distance
 * (at most twice the edits: a swap costs two there); the exact rule, a swap counting one edit, is
 * the domain's.
 */
async function textQuery(run: Run, projectKey: string, request: SearchRequest): Promise<string[][] | undefined> {
  const { terms } = request.text;
  if (terms.length === 0) return undefined;
  const groups: string[][] = [];
  for (const term of terms) {
    const edits = maxEditsOf(term, request.text);
    const length = letters(term).length;
    const group = [indexedWord(term)];
    if (edits > 0 && length <= MAX_WORD_LENGTH) {
      const statement = new Statement();
      statement.text = `SELECT word FROM search_words
        WHERE project_key = ${statement.bind(projectKey)} AND length BETWEEN ${statement.bind(length - edits)} AND ${statement.bind(length + edits)}
          AND levenshtein_less_equal(word, ${statement.bind(term)}, ${statement.bind(2 * edits)}) <= ${statement.bind(2 * edits)}`;
      const termLetters = letters(term);
      for (const { word } of await run<{ word: string }>(statement)) {
        if (word !== term && isWithinEditDistance(termLetters, letters(word), edits)) group.push(word);
      }
    }
    groups.push(group);
  }
  return groups;
}

/** The conditions on `r` of the resources that match the text and all the filters. */
function matching(statement: Statement, scope: Scope, filters: readonly FieldFilter[]): string {
  const conditions = [`r.project_key = ${statement.bind(scope.projectKey)}`, 'NOT r.deleted'];
  for (const words of scope.text ?? []) {
    conditions.push(`r.id IN (SELECT p.id FROM search_postings p WHERE p.project_key = r.project_key AND p.word = ANY(${statement.bind(words)}::text[]))`);
  }
  for (const filter of filters) conditions.push(filterCondition(statement, filter));
  return conditions.join(' AND ');
}

/** A filter on `r`: whether the resource holds (exists), holds no (missing), or holds a matching value at the field. */
function filterCondition(statement: Statement, { field, condition }: FieldFilter): string {
  const values = `SELECT 1 FROM search_values v WHERE v.project_key = r.project_key AND v.id = r.id AND v.field = ${statement.bind(field.path)}`;
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
  const where = matching(statement, scope, filters);
  const order = orderOf(statement, scope, page.sort);
  statement.text = `SELECT r.id FROM search_resources r WHERE ${where} ORDER BY ${order} LIMIT ${statement.bind(page.limit)} OFFSET ${statement.bind(page.offset)}`;
  return statement;
}

function countStatement(scope: Scope, filters: readonly FieldFilter[]): Statement {
  const statement = new Statement();
  statement.text = `SELECT count(*) FROM search_resources r WHERE ${matching(statement, scope, filters)}`;
  return statement;
}

/**
 * The sort keys in SQL: a field's smallest value ascending, its largest descending; resources
 * without one last either way. No keys: relevance with text, then id.
 */
function orderOf(statement: Statement, scope: Scope, keys: readonly SortKey[]): string {
  if (keys.length === 0) return scope.text === undefined ? 'r.id' : `${relevance(statement, scope.text)} DESC, r.id`;
  return keys
    .map((key) => {
      const direction = key.direction > 0 ? 'ASC' : 'DESC';
      return `${sortValue(statement, key)} ${direction} NULLS LAST`;
    })
    .join(', ');
}

/**
 * How often the resource holds the words searched for (any of a fuzzy term's), damped by its
 * length: ts_rank's term frequency with its length normalisation (rank / (1 + ln length)).
 */
function relevance(statement: Statement, groups: readonly string[][]): string {
  const occurrences = `SELECT sum(p.occurrences) FROM search_postings p WHERE p.project_key = r.project_key AND p.id = r.id AND p.word = ANY(${statement.bind(groups.flat())}::text[])`;
  return `(${occurrences})::float8 / (1 + ln(1 + r.word_count))`;
}

function sortValue(statement: Statement, key: SortKey): string {
  const path = key.path.join('.');
  if (path === 'id') return 'r.id';
  if (path === 'createdAt') return 'r.created_at';
  if (path === 'lastModifiedAt') return 'r.last_modified_at';
  const column = key.kind === 'number' ? 'number' : 'text';
  const aggregate = key.direction > 0 ? 'min' : 'max';
  return `(SELECT ${aggregate}(v.${column}) FROM search_values v WHERE v.project_key = r.project_key AND v.id = r.id AND v.field = ${statement.bind(path)})`;
}

/**
 * A facet over the facet base (text, `filter.query`, `filter.facets`). Values exist only for
 * resources not deleted, so with no condition beyond the project the values are counted directly.
 */
async function facetOf(run: Run, scope: Scope, filters: readonly FieldFilter[], facet: FacetRequest): Promise<FacetResult> {
  if (facet.kind === 'filter') {
    const count = await run<{ count: string }>(countStatement(scope, [...filters, facet.filter]));
    return { type: 'filter', count: Number(count[0]!.count) };
  }
  const statement = new Statement();
  const column = facet.field.kind === 'number' ? 'number' : 'text';
  let values = `FROM search_values v WHERE v.project_key = ${statement.bind(scope.projectKey)} AND v.field = ${statement.bind(facet.field.path)} AND v.${column} IS NOT NULL`;
  if (scope.text !== undefined || filters.length > 0) {
    values += ` AND v.id IN (SELECT r.id FROM search_resources r WHERE ${matching(statement, scope, filters)})`;
  }
  if (facet.kind === 'ranges') return rangeFacet(run, statement, values, facet.ranges);
  return termFacet(run, statement, values, scope, filters, facet);
}

/** Documents per distinct value, and (the grouping set `()`) the documents with any value; missing is the rest of the base. */
async function termFacet(run: Run, statement: Statement, values: string, scope: Scope, filters: readonly FieldFilter[], facet: FacetRequest & { kind: 'terms' }): Promise<FacetResult> {
  const column = facet.field.kind === 'number' ? 'number' : 'text';
  statement.text = `SELECT v.${column} AS term, count(DISTINCT v.id)::int AS count ${values} GROUP BY GROUPING SETS ((v.${column}), ())`;
  const rows = await run<{ term: number | string | null; count: number }>(statement);
  const base = Number((await run<{ count: string }>(countStatement(scope, filters)))[0]!.count);
  const withValue = rows.find((row) => row.term === null)?.count ?? 0;
  const terms = rows.filter((row) => row.term !== null).map((row) => ({ term: row.term!, count: row.count }));
  return termFacetResult(facet.field.kind, terms, base - withValue);
}

/** Per range (from included, to excluded): documents and values in it, their sum, least and greatest. */
async function rangeFacet(run: Run, statement: Statement, values: string, ranges: readonly NumberRange[]): Promise<FacetResult> {
  const columns = ranges.map((range, index) => {
    const ends = [
      ...(range.from === undefined ? [] : [`v.number >= ${statement.bind(range.from)}::float8`]),
      ...(range.to === undefined ? [] : [`v.number < ${statement.bind(range.to)}::float8`]),
    ];
    const inRange = `FILTER (WHERE ${ends.length === 0 ? 'true' : ends.join(' AND ')})`;
    return [
      `count(DISTINCT v.id) ${inRange} AS documents_${index}`,
      `count(*) ${inRange} AS values_${index}`,
      `sum(v.number) ${inRange} AS sum_${index}`,
      `min(v.number) ${inRange} AS min_${index}`,
      `max(v.number) ${inRange} AS max_${index}`,
    ].join(', ');
  });
  statement.text = `SELECT ${columns.join(', ')} ${values}`;
  const [row] = await run<Record<string, string | number | null>>(statement);
  return {
    type: 'range',
    dataType: 'number',
    ranges: ranges.map((range, index) =>
      facetRange(range, {
        documents: Number(row?.[`documents_${index}`] ?? 0),
        values: Number(row?.[`values_${index}`] ?? 0),
        sum: Number(row?.[`sum_${index}`] ?? 0),
        min: Number(row?.[`min_${index}`] ?? 0),
        max: Number(row?.[`max_${index}`] ?? 0),
      }),
    ),
  };
}
