import { scoringTexts, type FacetRequest, type Field, type SearchExpression, type SearchRequest, type SearchSort, type TextExpression, type TextTerm } from '../../domain/search';
import { firstInRange, LONG_TEXT, prefixUpperBound, TEXT_PREFIX_LENGTH } from './search-schema';

/**
 * A search request as SQL: every statement a search runs is built here, from the request and the
 * words each of its terms matches (resolved first, search-index.ts). Tables and their mechanisms
 * are search-schema.ts's. Every value is a bound parameter, field names and words included; the
 * text holds only what this file writes; every statement is scoped by project.
 *
 * An expression is a condition on `r`, a row of search_resources: a simple expression is an
 * EXISTS over the resource's values or postings, compounds are AND, OR and NOT. So the planner
 * turns top-level conditions into joins and starts from the most selective one (a rare word, a
 * rare value), probing the others by resource; nested ones probe by resource.
 */
export class Statement {
  readonly values: unknown[] = [];
  text = '';

  /** Adds a parameter; answers its placeholder. */
  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** What a term matches (search-model.ts, TextTerm): these words, and with `prefix`, every word starting with it. */
export interface TermWords {
  words: readonly string[];
  prefix?: string;
}

export class SearchSql {
  constructor(
    private readonly projectKey: string,
    private readonly terms: ReadonlyMap<TextTerm, TermWords>,
  ) {}

  /** The page's ids, in order. */
  page(request: SearchRequest): Statement {
    return this.build((st, project) => {
      const texts = scoringTexts(request.query);
      const keys: readonly SearchSort[] = request.sort.length > 0 ? request.sort : texts.length > 0 ? [{ by: 'score', direction: -1 }] : [];
      const scored = keys.some((key) => key.by === 'score') && texts.length > 0;
      // The score sums the resource's postings `s` of the scoring texts' words, joined, so that the
      // planner reads them by resource for a few matches or all at once for many. One text of the
      // query's top that any of its words matches is that join itself, not a condition besides.
      const [only] = texts;
      const isJoin = scored && texts.length === 1 && (only!.terms.length === 1 || only!.mustMatch === 'any') && isOnTop(only!, request.query);
      const words = () => group(texts.map((text) => `(${this.anyTerm(st, text, 's')}${this.fieldOf(st, text, 's')})`), 'OR', 'false');
      const join = scored ? ` ${isJoin ? 'JOIN' : 'LEFT JOIN'} search_postings s ON s.seq = r.seq AND s.project_key = ${project} AND ${words()}` : '';
      const from = this.matching(st, project, [isJoin ? without(request.query!, only!) : request.query, request.postFilter], join);
      const score = scored ? `coalesce(sum(s.occurrences), 0)::float8 / (1 + ln(1 + r.word_count::float8))` : '0::float8';
      const byId = keys.some((key) => key.by === 'field' && key.field.path === 'id');
      const order = [...keys.map((key) => `${key.by === 'score' ? score : sortValue(st, key)} ${key.direction > 0 ? 'ASC' : 'DESC'} NULLS LAST`), ...(byId ? [] : ['r.id'])];
      const limit = `LIMIT ${st.bind(request.page.limit)} OFFSET ${st.bind(request.page.offset)}`;
      return `SELECT r.id ${from}${scored ? ' GROUP BY r.project_key, r.id' : ''} ORDER BY ${order.join(', ')} ${limit}`;
    });
  }

  /** How many resources match `where` (all of them; none: every resource of the project). */
  count(where: readonly (SearchExpression | undefined)[]): Statement {
    return this.build((st, project) => `SELECT count(*)::int AS count ${this.matching(st, project, where)}`);
  }

  /**
   * A facet's statement over its base (baseOf): `distinct` answers its listed buckets (value, count)
   * after the rows of the whole (`whole`: count and resources with a value, one per grouping),
   * `ranges` one row of figures per range, `stats` one row. A `count` facet is `count(baseOf(…))`.
   */
  facet(request: SearchRequest, facet: Exclude<FacetRequest, { kind: 'count' }>): Statement {
    return this.build((st, project) => {
      const column = columnOf(facet.field);
      const base = baseOf(request, facet).filter((expression) => expression !== undefined);
      // The base's resources once (materialized): however few the planner believes they are (a
      // project grown since the statistics), it never evaluates them again for each value.
      const withBase = base.length === 0 ? '' : `WITH base AS MATERIALIZED (SELECT r.seq ${this.matching(st, project, base)}) `;
      // Values exist only for live resources: over the whole project they are counted directly.
      const values = `FROM search_values v WHERE v.project_key = ${project} AND v.field = ${st.bind(facet.field.path)} AND ${column} IS NOT NULL${
        base.length === 0 ? '' : ' AND v.seq IN (SELECT seq FROM base)'
      }`;
      if (facet.kind === 'stats') {
        const sum = facet.field.kind === 'number' ? 'coalesce(sum(v.number * v.occurrences), 0)' : 'NULL::float8';
        return `${withBase}SELECT coalesce(sum(v.occurrences), 0)::int AS count, min(${column}) AS min, max(${column}) AS max, ${sum} AS sum ${values}`;
      }
      if (facet.kind === 'ranges') return `${withBase}SELECT * FROM ${facet.ranges.map((range, index) => `(${rangeFigures(st, range, index, values)}) AS range_${index}`).join(', ')}`;
      // A resource holds each value once (with its occurrences): a value's rows are its resources,
      // and the rows marked smallest are the resources with a value. One pass over the field's
      // index groups by value and, in the same pass, the whole (the empty grouping set). A text
      // shorter than the indexed prefix is its prefix; longer ones (LONG_TEXT) are grouped apart.
      const includes = facet.includes && `${st.bind(facet.includes)}::${facet.field.kind === 'text' ? 'text' : 'float8'}[]`;
      const grouped = (by: string, where = '') =>
        `SELECT grouping(${by}) = 1 AS whole, ${by} AS value, count(*)::int AS count, count(*) FILTER (WHERE v.smallest)::int AS resources ${values}${where} GROUP BY GROUPING SETS ((${by}), ())${
          includes ? ` HAVING grouping(${by}) = 1 OR ${by} = ANY(${includes})` : ''
        }`;
      const groupings = facet.field.kind === 'text' ? [grouped('v.prefix', ` AND length(v.prefix) < ${TEXT_PREFIX_LENGTH}`), grouped('v.text', ` AND ${LONG_TEXT}`)] : [grouped(column)];
      const direction = facet.order.direction > 0 ? 'ASC' : 'DESC';
      const order = facet.order.by === 'count' ? `count ${direction}, value` : `value ${direction}`;
      return `${withBase}SELECT whole, value, count, resources FROM (${groupings.join(' UNION ALL ')}) AS bucket ORDER BY whole DESC, ${order} LIMIT ${st.bind(facet.limit)} + ${groupings.length}`;
    });
  }

  private build(write: (statement: Statement, project: string) => string): Statement {
    const statement = new Statement();
    statement.text = write(statement, statement.bind(this.projectKey));
    return statement;
  }

  /** `FROM … WHERE …` of the project's live resources, as `r`, that match every expression given. */
  private matching(st: Statement, project: string, where: readonly (SearchExpression | undefined)[], join = ''): string {
    const conditions = where.filter((expression) => expression !== undefined).map((expression) => this.condition(st, project, expression, true));
    return `FROM search_resources r${join} WHERE ${[`r.project_key = ${project}`, 'NOT r.deleted', ...conditions].join(' AND ')}`;
  }

  /**
   * `on top`: in the WHERE's chain of ANDs, where the planner turns EXISTS into joins. An OR there
   * is not one: it would read the project, testing each resource. So an OR on top also names its
   * candidates, a superset of its matches the indexes find (`candidates`), for the planner to start from.
   */
  private condition(st: Statement, project: string, expression: SearchExpression, onTop = false): string {
    const condition = this.conditionOf(st, project, expression, onTop);
    const candidates = onTop && expression.kind === 'or' ? this.candidates(st, project, expression) : undefined;
    return candidates === undefined ? condition : `r.seq IN (${candidates}) AND ${condition}`;
  }

  /** Resources among which all an expression's matches are, from the indexes; undefined when that is every resource. */
  private candidates(st: Statement, project: string, expression: SearchExpression): string | undefined {
    if (!hasCandidates(expression)) return undefined;
    switch (expression.kind) {
      case 'and':
      case 'filter':
        return this.candidates(st, project, expression.of.find(hasCandidates)!);
      case 'or':
        return expression.of.map((inner) => this.candidates(st, project, inner)).join(' UNION ALL ');
      case 'not':
        return undefined;
      case 'text': {
        // Every term's resources hold the first's words; any term's, some term's words.
        const terms = expression.mustMatch === 'all' ? expression.terms.slice(0, 1) : expression.terms;
        return `SELECT p.seq FROM search_postings p WHERE p.project_key = ${project}${this.fieldOf(st, expression)} AND ${this.anyTerm(st, { ...expression, terms })}`;
      }
      default:
        return `SELECT v.seq FROM search_values v WHERE v.project_key = ${project} AND v.field = ${st.bind(expression.field.path)}${valueCondition(st, expression)}`;
    }
  }

  private conditionOf(st: Statement, project: string, expression: SearchExpression, onTop: boolean): string {
    const each = (of: readonly SearchExpression[], stillOnTop = false) => of.map((inner) => this.condition(st, project, inner, stillOnTop));
    switch (expression.kind) {
      case 'and':
      case 'filter':
        return group(each(expression.of, onTop), 'AND', 'true');
      case 'or':
        return group(each(expression.of), 'OR', 'false');
      case 'not':
        return group(each(expression.of).map((condition) => `NOT ${condition}`), 'AND', 'true');
      case 'text':
        return this.text(st, project, expression);
      default:
        return `EXISTS (SELECT 1 FROM search_values v WHERE v.project_key = ${project} AND v.seq = r.seq AND v.field = ${st.bind(expression.field.path)}${valueCondition(st, expression)})`;
    }
  }

  /** Every term (`all`) or any (`any`) held at the field, or anywhere. */
  private text(st: Statement, project: string, text: TextExpression): string {
    const holds = (words: string) =>
      `EXISTS (SELECT 1 FROM search_postings p WHERE p.project_key = ${project} AND p.seq = r.seq${this.fieldOf(st, text)} AND ${words})`;
    return text.mustMatch === 'all' ? group(text.terms.map((term) => holds(this.words(st, term))), 'AND', 'true') : holds(this.anyTerm(st, text));
  }

  private fieldOf(st: Statement, text: TextExpression, alias = 'p'): string {
    return text.field ? ` AND ${alias}.field = ${st.bind(text.field.path)}` : '';
  }

  private words(st: Statement, term: TextTerm, alias = 'p'): string {
    const { words, prefix } = this.terms.get(term)!;
    const listed = `${alias}.word = ANY(${st.bind(words)}::text[])`;
    if (prefix === undefined) return listed;
    const upper = prefixUpperBound(prefix);
    return `(${listed} OR (${alias}.word >= ${st.bind(prefix)}${upper === undefined ? '' : ` AND ${alias}.word < ${st.bind(upper)}`}))`;
  }

  private anyTerm(st: Statement, text: TextExpression, alias = 'p'): string {
    return group(text.terms.map((term) => this.words(st, term, alias)), 'OR', 'false');
  }
}

/** Whether `text` is the query or one of its top-level conditions. */
function isOnTop(text: TextExpression, query: SearchExpression | undefined): boolean {
  return query === text || (query?.kind === 'and' && query.of.includes(text));
}

/** The query without one of its top-level conditions. */
function without(query: SearchExpression, text: TextExpression): SearchExpression | undefined {
  return query === text ? undefined : query.kind === 'and' ? { kind: 'and', of: query.of.filter((condition) => condition !== text) } : query;
}

function hasCandidates(expression: SearchExpression): boolean {
  if (expression.kind === 'not') return false;
  if (expression.kind === 'and' || expression.kind === 'filter') return expression.of.some(hasCandidates);
  if (expression.kind === 'or') return expression.of.length > 0 && expression.of.every(hasCandidates);
  return expression.kind !== 'text' || expression.terms.length > 0;
}

/** The expressions a facet's resources match: the query's (scope 'query') and its own filter. */
export function baseOf(request: SearchRequest, facet: FacetRequest): (SearchExpression | undefined)[] {
  return [facet.scope === 'query' ? request.query : undefined, facet.filter];
}

function group(conditions: readonly string[], operator: 'AND' | 'OR', empty: string): string {
  if (conditions.length === 0) return empty;
  return conditions.length === 1 ? conditions[0]! : `(${conditions.join(` ${operator} `)})`;
}

/** Numbers and instants are `number`, texts `text`. */
function columnOf(field: Field): string {
  return field.kind === 'text' ? 'v.text' : 'v.number';
}

/** The rest of a value expression's condition on `v`, one of the resource's values at the field. */
function valueCondition(st: Statement, expression: Exclude<SearchExpression, { kind: 'and' | 'or' | 'not' | 'filter' | 'text' }>): string {
  const isText = expression.field.kind === 'text';
  const folded = (caseInsensitive: boolean) => (caseInsensitive ? 'coalesce(v.lowered, v.text)' : 'v.text');
  const lower = (text: string, caseInsensitive: boolean) => (caseInsensitive ? text.toLowerCase() : text);
  switch (expression.kind) {
    case 'exists':
      return '';
    case 'exact': {
      if (!isText) return ` AND v.number = ANY(${st.bind(expression.values)}::float8[])`;
      const texts = expression.values.map((value) => lower(String(value), expression.caseInsensitive));
      // The indexed prefix first, so that the text index finds the values.
      const prefixes = expression.caseInsensitive ? '' : ` AND v.prefix = ANY(${st.bind(texts.map((text) => [...text].slice(0, TEXT_PREFIX_LENGTH).join('')))}::text[])`;
      return `${prefixes} AND ${folded(expression.caseInsensitive)} = ANY(${st.bind(texts)}::text[])`;
    }
    case 'range': {
      const bounds = (['gt', 'gte', 'lt', 'lte'] as const).flatMap((name) => {
        const value = expression[name];
        if (value === undefined) return [];
        const operator = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[name];
        if (!isText) return [`v.number ${operator} ${st.bind(value)}::float8`];
        const bound = st.bind(value);
        // A prefix orders as its text does, never past it.
        return [`v.prefix ${operator.startsWith('>') ? '>=' : '<='} left(${bound}::text, ${TEXT_PREFIX_LENGTH})`, `v.text ${operator} ${bound}::text`];
      });
      return ` AND ${bounds.length === 0 ? `${columnOf(expression.field)} IS NOT NULL` : bounds.join(' AND ')}`;
    }
    case 'prefix': {
      const value = lower(expression.value, expression.caseInsensitive);
      if (expression.caseInsensitive) return ` AND starts_with(${folded(true)}, ${st.bind(value)})`;
      const start = [...value].slice(0, TEXT_PREFIX_LENGTH).join('');
      const upper = prefixUpperBound(start);
      return ` AND v.prefix >= ${st.bind(start)}${upper === undefined ? '' : ` AND v.prefix < ${st.bind(upper)}`} AND starts_with(v.text, ${st.bind(value)})`;
    }
    case 'wildcard': {
      const pattern = lower(expression.pattern, expression.caseInsensitive).replace(/[\\%_]/g, '\\$&').replaceAll('*', '%').replaceAll('?', '_');
      return ` AND ${folded(expression.caseInsensitive)} LIKE ${st.bind(pattern)}`;
    }
  }
}

/** A field's values reduced to one per resource by the sort's mode; `id`, `createdAt` and `lastModifiedAt` are the resource's own. */
function sortValue(st: Statement, key: Extract<SearchSort, { by: 'field' }>): string {
  const own = { id: 'r.id', createdAt: 'r.created_at', lastModifiedAt: 'r.last_modified_at' }[key.field.path];
  if (own) return own;
  const column = columnOf(key.field);
  const reduced = { min: `min(${column})`, max: `max(${column})`, sum: 'sum(v.number * v.occurrences)', avg: 'sum(v.number * v.occurrences) / sum(v.occurrences)' }[key.mode];
  return `(SELECT ${reduced} FROM search_values v WHERE v.seq = r.seq AND v.field = ${st.bind(key.field.path)} AND ${column} IS NOT NULL)`;
}

/**
 * One range's figures (from included, to excluded): the resources with a value in it, its values
 * (each as often as held) with their sum, least and greatest. A resource counts once, at its
 * smallest value inside the range. Each range reads its own part of the field's index (3× sooner
 * over a whole project than one pass testing every range on every value).
 */
function rangeFigures(st: Statement, range: { from?: number | string; to?: number | string }, index: number, values: string): string {
  const from = range.from === undefined ? undefined : `${st.bind(range.from)}::float8`;
  const ends = [...(from === undefined ? [] : [`v.number >= ${from}`]), ...(range.to === undefined ? [] : [`v.number < ${st.bind(range.to)}::float8`])];
  const figures = [
    `count(*) FILTER (WHERE ${firstInRange(from)})::int AS resources_${index}`,
    `coalesce(sum(v.occurrences), 0)::int AS values_${index}`,
    `coalesce(sum(v.number * v.occurrences), 0) AS sum_${index}`,
    `min(v.number) AS min_${index}`,
    `max(v.number) AS max_${index}`,
  ];
  return `SELECT ${figures.join(', ')} ${values}${ends.map((end) => ` AND ${end}`).join('')}`;
}
