import type * as z from 'zod/mini';
import { MAX_LISTED_PROBLEMS } from '../limits';
import { instantOf } from '../query/field-values';
import { ValidationError } from '../validation';
import type { Field, FieldCatalog } from './field-catalog';
import { MAX_FACETS, MAX_QUERY_DEPTH, MAX_QUERY_EXPRESSIONS, ResourceSearchRequest, type FacetExpressionBody, type SearchQueryBody } from './product-search-request';
import type { ResourceSearchFacetResult } from './product-search-answer';
import type { FacetCounts, FacetRequest, SearchExpression, SearchRequest, SearchSort, SearchValue, TextExpression } from './search-model';
import { defaultFuzzyLevel, tokenize } from './text-match';

/**
 * Product Search (POST /{projectKey}/resource/search) over the search model. Its request read into
 * the model: the body's shape checked by its schema (product-search-request.ts), then each field
 * looked up and each value read as its field's kind; a refusal names the expression at fault by
 * its path in the body (`query.and[1].exact.field: Unknown field 'x'.`). The engine's facet counts
 * written as its facet results.
 */
export interface ProductSearch {
  request: SearchRequest;
  /** `resourceParameters` was given: each result carries its current resource. */
  withResources: boolean;
}

export function compileProductSearch(body: unknown, fields: FieldCatalog): ProductSearch {
  checkQueryBounds(body);
  const parsed = ResourceSearchRequest.safeParse(body);
  if (!parsed.success) throw refusal(parsed.error.issues.flatMap((issue) => problems(issue, [])));
  const { query, postFilter, sort = [], facets = [], limit = 20, offset = 0, resourceParameters } = parsed.data;
  const compiler = new Compiler(fields);
  return {
    request: {
      query: query && compiler.query(query, 'query'),
      postFilter: postFilter && compiler.query(postFilter, 'postFilter'),
      facets: facets.map((facet, index) => compiler.facet(facet, `facets[${index}]`)),
      sort: sort.map((sorting, index) => compiler.sort(sorting, `sort[${index}]`)),
      page: { limit, offset, withTotal: true },
    },
    withResources: resourceParameters !== undefined,
  };
}

/**
 * Each query within MAX_QUERY_EXPRESSIONS and MAX_QUERY_DEPTH, checked on the raw body before its
 * shape: a 256 KB body holds thousands of expressions, which the schema's unions would read (and
 * refuse) one by one, for seconds. Stops at the first expression past a bound.
 */
function checkQueryBounds(body: unknown): void {
  const { query, postFilter, facets } = (isObject(body) ? body : {}) as Record<string, unknown>;
  const queries: [unknown, string][] = [[query, 'query'], [postFilter, 'postFilter']];
  (Array.isArray(facets) ? facets.slice(0, MAX_FACETS) : []).forEach((facet, index) => {
    for (const kind of ['distinct', 'ranges', 'count', 'stats']) {
      const value = isObject(facet) ? facet[kind] : undefined;
      if (isObject(value)) queries.push([value.filter, `facets[${index}].${kind}.filter`]);
    }
  });
  for (const [expression, path] of queries) {
    let expressions = 0;
    const visit = (node: unknown, at: string, depth: number): void => {
      if (node === undefined) return;
      if (++expressions > MAX_QUERY_EXPRESSIONS) throw refused(at, `A query holds at most ${MAX_QUERY_EXPRESSIONS} expressions.`);
      for (const kind of COMPOUNDS) {
        const of = isObject(node) ? node[kind] : undefined;
        if (!Array.isArray(of)) continue;
        if (depth >= MAX_QUERY_DEPTH) throw refused(`${at}.${kind}`, `Compound expressions nest at most ${MAX_QUERY_DEPTH} deep.`);
        of.forEach((inner, index) => visit(inner, `${at}.${kind}[${index}]`, depth + 1));
      }
    };
    visit(expression, path, 0);
  }
}

const COMPOUNDS = ['and', 'or', 'not', 'filter'];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const EXPRESSIONS = 'and, or, not, filter, exact, fullText, fullTextPrefix, fuzzy, prefix, wildcard, range or exists';
const FACETS = 'distinct, ranges, count or stats';

/**
 * What a schema issue says, at its path. An expression or a facet is a union of objects of one
 * property each: its issues are those of the member whose property the object holds.
 */
function problems(issue: z.core.$ZodIssue, at: readonly PropertyKey[]): string[] {
  const path = [...at, ...issue.path];
  if (issue.code === 'invalid_union') {
    const named = issue.errors.filter((member) => member.every((inner) => inner.path.length > 0));
    if (named.length !== 1) return [`${pathText(path)}: Expected an object holding exactly one of ${path.at(-2) === 'facets' ? FACETS : EXPRESSIONS}.`];
    return named[0]!.flatMap((inner) => problems(inner, path));
  }
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${pathText([...path, key])}: Unknown property.`);
  return [`${pathText(path)}: ${issue.message}.`];
}

const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>((text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text ? `${text}.${String(segment)}` : String(segment)), '') || 'body';

const refusal = (messages: string[]) =>
  new ValidationError(messages.slice(0, MAX_LISTED_PROBLEMS).map((message) => ({ code: 'InvalidInput', message })) as [{ code: 'InvalidInput'; message: string }]);

const refused = (path: string, message: string) => refusal([`${path}: ${message}`]);

/** The kinds of field each expression takes (field-catalog.ts names them). */
const COMPARED = ['number', 'text', 'datetime'];
const TEXT = ['text'];
const RANGED = ['number', 'datetime'];
const ANY_KIND = [...COMPARED, 'other'];

/** Per kind: what its fields hold, the `fieldType`s that fit them, and a value read as theirs (search-model.ts: instants as epoch milliseconds). */
const KINDS: Readonly<Record<string, { holds: string; fieldTypes: readonly string[]; expected?: string; read?: (raw: number | string) => SearchValue | undefined }>> = {
  number: { holds: 'numbers', fieldTypes: ['number', 'set_number'], expected: 'a number', read: (raw) => (typeof raw === 'number' ? raw : undefined) },
  text: { holds: 'text', fieldTypes: ['text', 'set_text'], expected: 'text', read: (raw) => (typeof raw === 'string' ? raw : undefined) },
  datetime: { holds: 'date-times', fieldTypes: ['datetime', 'set_datetime'], expected: 'an ISO 8601 date-time', read: (raw) => (typeof raw === 'string' ? instantOf(raw) : undefined) },
  other: { holds: 'no value to compare', fieldTypes: [] },
};

function valueOf(field: Field, raw: number | string, path: string): SearchValue {
  const { read, expected } = KINDS[field.kind]!; // fields of values are looked up for comparable kinds only
  const value = read!(raw);
  if (value === undefined) throw refused(path, `Expected ${expected} for the field '${field.path}', found ${JSON.stringify(raw)}.`);
  return value;
}

/** A bucket key of a distinct facet's `includes` as its field's value: keys are strings, as the answer writes them. */
const keyValue = (field: Field, key: string, path: string) =>
  valueOf(field, field.kind === 'number' && key.trim() !== '' && Number.isFinite(Number(key)) ? Number(key) : key, path);

class Compiler {
  constructor(private readonly fields: FieldCatalog) {}

  /** One query: `query`, `postFilter`, a facet's `filter`. */
  query(body: SearchQueryBody, path: string): SearchExpression {
    if ('and' in body) return this.compound('and', body.and, `${path}.and`);
    if ('or' in body) return this.compound('or', body.or, `${path}.or`);
    if ('not' in body) return this.compound('not', body.not, `${path}.not`);
    if ('filter' in body) return this.compound('filter', body.filter, `${path}.filter`);
    if ('fullText' in body) return this.text(body.fullText, `${path}.fullText`, false);
    if ('fullTextPrefix' in body) return this.text(body.fullTextPrefix, `${path}.fullTextPrefix`, true);
    if ('fuzzy' in body) return this.text(body.fuzzy, `${path}.fuzzy`, false, body.fuzzy.level);
    if ('exists' in body) return { kind: 'exists', field: this.field(body.exists, `${path}.exists`, ANY_KIND) };
    if ('exact' in body) {
      const { value, values, caseInsensitive = false } = body.exact;
      const at = `${path}.exact`;
      const field = this.field(body.exact, at, COMPARED);
      if ((value === undefined) === (values === undefined)) throw refused(at, 'Expected either value or values.');
      const given = values ?? [value!];
      return { kind: 'exact', field, values: given.map((one, index) => valueOf(field, one, values ? `${at}.values[${index}]` : `${at}.value`)), caseInsensitive };
    }
    if ('range' in body) {
      const at = `${path}.range`;
      const field = this.field(body.range, at, COMPARED);
      const { gt, gte, lt, lte } = body.range;
      const bounds = Object.entries({ gt, gte, lt, lte }).filter((entry): entry is [string, number | string] => entry[1] !== undefined);
      if (bounds.length === 0) throw refused(at, 'Expected at least one of gt, gte, lt and lte.');
      return { kind: 'range', field, ...Object.fromEntries(bounds.map(([bound, raw]) => [bound, valueOf(field, raw, `${at}.${bound}`)])) };
    }
    const [kind, pattern] = 'prefix' in body ? (['prefix', body.prefix] as const) : (['wildcard', body.wildcard] as const);
    const field = this.field(pattern, `${path}.${kind}`, TEXT);
    return kind === 'prefix'
      ? { kind, field, value: pattern.value, caseInsensitive: pattern.caseInsensitive ?? false }
      : { kind, field, pattern: pattern.value, caseInsensitive: pattern.caseInsensitive ?? false };
  }

  private compound(kind: 'and' | 'or' | 'not' | 'filter', of: readonly SearchQueryBody[], path: string): SearchExpression {
    return { kind, of: of.map((inner, index) => this.query(inner, `${path}[${index}]`)) };
  }

  /** fullText, fullTextPrefix (its last word a prefix) and fuzzy (each word's edits capped by its length, as `defaultFuzzyLevel`). */
  private text(body: { field?: string; fieldType?: string; value: string; language?: string; mustMatch?: 'all' | 'any' }, path: string, prefix: boolean, level = 0): TextExpression {
    const field = body.field === undefined ? undefined : this.field({ field: body.field, fieldType: body.fieldType }, path, TEXT);
    const words = [...new Set(tokenize(body.value))];
    if (words.length === 0) throw refused(`${path}.value`, 'Holds no word to search for.');
    const terms = words.map((word, index) => ({ word, edits: Math.min(level, defaultFuzzyLevel(word)), prefix: prefix && index === words.length - 1 }));
    return { kind: 'text', field, terms, mustMatch: body.mustMatch ?? 'all', language: body.language };
  }

  /** The field an expression, a sort or a facet names, of one of `kinds`; its `fieldType`, when given, must fit it. */
  private field({ field: name, fieldType }: { field: string; fieldType?: string }, path: string, kinds: readonly string[]): Field {
    const field = this.fields.lookup(name);
    if (!field) throw refused(`${path}.field`, `Unknown field '${name}'.`);
    const { holds, fieldTypes } = KINDS[field.kind]!;
    if (!kinds.includes(field.kind)) throw refused(`${path}.field`, `The field '${name}' holds ${holds}: expected a field of ${kinds.map((kind) => KINDS[kind]!.holds).join(' or ')}.`);
    if (fieldType !== undefined && !fieldTypes.includes(fieldType)) throw refused(`${path}.fieldType`, `The field '${name}' holds ${holds}, not ${fieldType}.`);
    return field;
  }

  sort({ field: name, order, mode, fieldType }: { field: string; order: 'asc' | 'desc'; mode?: 'min' | 'max' | 'avg' | 'sum'; fieldType?: string }, path: string): SearchSort {
    const direction = order === 'asc' ? 1 : -1;
    if (name === 'score') return { by: 'score', direction };
    const field = this.field({ field: name, fieldType }, path, COMPARED);
    const reduced = mode ?? (direction === 1 ? 'min' : 'max');
    if ((reduced === 'avg' || reduced === 'sum') && field.kind !== 'number') throw refused(`${path}.mode`, `Only number fields sort by ${reduced}.`);
    return { by: 'field', field, direction, mode: reduced };
  }

  facet(body: FacetExpressionBody, path: string): FacetRequest {
    const [kind, facet] = Object.entries(body)[0] as [keyof typeof body, { name: string; scope?: 'query' | 'all'; filter?: SearchQueryBody }];
    const at = `${path}.${kind}`;
    const shared = { name: facet.name, scope: facet.scope ?? 'query', filter: facet.filter && this.query(facet.filter, `${at}.filter`) };
    if ('count' in body) return { kind: 'count', ...shared };
    if ('stats' in body) return { kind: 'stats', ...shared, field: this.field(body.stats, at, COMPARED) };
    if ('ranges' in body) {
      const field = this.field(body.ranges, at, RANGED);
      const bound = (raw: number | string | undefined, name: string) => (raw === undefined ? undefined : valueOf(field, raw, name));
      const ranges = body.ranges.ranges.map(({ from, to, key }, index) => ({ from: bound(from, `${at}.ranges[${index}].from`), to: bound(to, `${at}.ranges[${index}].to`), key }));
      return { kind: 'ranges', ...shared, field, ranges };
    }
    const { sort, limit = 10, includes, missing } = body.distinct;
    const field = this.field(body.distinct, at, COMPARED);
    return {
      kind: 'distinct',
      ...shared,
      field,
      limit,
      order: { by: sort?.by === 'key' ? 'value' : 'count', direction: (sort?.order ?? 'desc') === 'asc' ? 1 : -1 },
      includes: includes?.map((key, index) => keyValue(field, key, `${at}.includes[${index}]`)),
      missing,
    };
  }
}

/** The engine's counts of each facet as Product Search answers them, in the request's order. */
export function productSearchFacetResults(facets: readonly FacetRequest[], counts: readonly FacetCounts[]): ResourceSearchFacetResult[] {
  return facets.map((facet, index) => {
    const counted = counts[index]!;
    const { name } = facet;
    if (facet.kind === 'count' && counted.kind === 'count') return { name, value: counted.count };
    if (facet.kind === 'ranges' && counted.kind === 'ranges') {
      const key = (value: SearchValue | undefined) => (value === undefined ? '*' : keyOf(facet.field, value));
      return { name, buckets: facet.ranges.map((range, at) => ({ key: range.key ?? `${key(range.from)}-${key(range.to)}`, count: counted.ranges[at]!.resources })) };
    }
    if (facet.kind === 'stats' && counted.kind === 'stats') {
      const stat = (value: SearchValue | undefined) => (value === undefined ? null : facet.field.kind === 'number' ? value : keyOf(facet.field, value));
      const numbers = facet.field.kind === 'number' && counted.count > 0 ? { mean: counted.sum! / counted.count, sum: counted.sum! } : {};
      return { name, min: stat(counted.min), max: stat(counted.max), ...numbers, count: counted.count };
    }
    if (facet.kind === 'distinct' && counted.kind === 'distinct') {
      const buckets = counted.buckets.map(({ value, count }) => ({ key: keyOf(facet.field, value), count }));
      // Product Search's `missing` names one more bucket: resources without a value, after the values' (not within their limit).
      const listed = facet.missing !== undefined && counted.missing > 0;
      return { name, buckets: listed ? [...buckets, { key: facet.missing!, count: counted.missing }] : buckets };
    }
    throw new Error(`The engine answered the ${facet.kind} facet '${name}' with ${counted.kind} counts.`);
  });
}

/** A value as a bucket's key: numbers as JSON writes them, instants (date-time fields) in ISO 8601 UTC, text itself. */
const keyOf = (field: Field, value: SearchValue): string => ((field.kind as string) === 'datetime' ? new Date(value).toISOString() : String(value));
