/**
 * GET /{projectKey}/resource/searchApiPattern compiled to the search model (search-model.ts):
 *
 *   text.<locale>=<words>     a text expression of the query: every word, stemmed in the locale's language
 *   fuzzy, fuzzyLevel         each word's edits (fuzzyLevel above a word's default is refused)
 *   filter.query=<filter>     the query: restricts the results and what facets count
 *   filter=<filter>           the post-filter: restricts the results only
 *   filter.facets=<filter>    every facet's filter: restricts what facets count only
 *   facet=<field>             distinct values, the facetLimit most frequent (default 10, at most 200)
 *   facet=<field>:range(…)    ranges of a number or date-time field
 *   facet=<field>:<filter>    a count of what matches the condition
 *   sort, limit, offset, withTotal
 *
 * A filter is `<field>:<condition>` (expression-parser.ts): exists, missing, or values and ranges
 * (both ends included), any of which may match. Facets take `as <name>`, their key in the answer
 * (by default the expression as given). Parameter types are the endpoint's to check; here, what
 * they mean: fields exist, values fit them.
 */
import { queryableFields, sortKeys } from '../query';
import { instantOf } from '../query/field-values';
import { pageRequestOf } from '../query/page-window';
import type { QueryParameters } from '../query-parameters';
import type { Condition, ExpressionSource, FacetExpression, FieldReference, Scalar, ValueItem } from './expression-ast';
import { parseFacetExpression, parseFilterExpression } from './expression-parser';
import { FieldCatalog, type Field, type FieldKind } from './field-catalog';
import { malformedParameter, SearchError, syntaxError } from './search-error';
import type { FacetRequest, SearchExpression, SearchRequest, SearchSort, SearchValue, TextExpression } from './search-model';
import { defaultFuzzyLevel, MAX_FUZZY_LEVEL, tokenize } from './text-match';

export const DEFAULT_FACET_LIMIT = 10;
export const MAX_FACET_LIMIT = 200;

/** `text.en`, `text.de-DE`. */
const TEXT_PARAMETER = /^text\.[a-z]{2}(-[A-Z]{2})?$/;

/** Throws SearchError for anything the parameters ask that the resource's schema cannot answer. */
export function compileSearchApiPattern(query: QueryParameters, jsonSchema: object): SearchRequest {
  const fields = new FieldCatalog(jsonSchema);
  const filters = (parameter: string) => query.all(parameter).map((text) => filterOf(nonEmpty({ parameter, text }), fields));
  const facetFilter = allOf(filters('filter.facets'));
  return {
    query: allOf([...textsOf(query), ...filters('filter.query')]),
    postFilter: allOf(filters('filter')),
    facets: facetsOf(query, fields, facetFilter),
    sort: sortOf(query.all('sort'), jsonSchema, fields),
    page: pageRequestOf(query),
  };
}

/** A field's least value ascending, its greatest descending; the engine breaks ties by id itself. */
function sortOf(sorts: readonly string[], jsonSchema: object, fields: FieldCatalog): SearchSort[] {
  return sortKeys(sorts, queryableFields(jsonSchema))
    .slice(0, sorts.length)
    .map(({ path, direction }) => ({ by: 'field', field: fields.lookup(path.join('.'))!, direction, mode: direction > 0 ? 'min' : 'max' }));
}

/** One text expression per `text.<locale>` parameter: its distinct words, all of which must match. */
function textsOf(query: QueryParameters): TextExpression[] {
  const fuzzy = query.boolean('fuzzy') ?? false;
  const fuzzyLevel = fuzzy ? query.number('fuzzyLevel') : undefined;
  const texts = query.matching(/^text\./).map(([name, values]): TextExpression => {
    if (!TEXT_PARAMETER.test(name)) throw malformedParameter(name, `The locale must look like 'en' or 'en-US'.`);
    const words = [...new Set(values.flatMap(tokenize))];
    const terms = words.map((word) => ({ word, edits: fuzzy ? (fuzzyLevel ?? defaultFuzzyLevel(word)) : 0, prefix: false }));
    return { kind: 'text', field: undefined, terms, mustMatch: 'all', language: name.slice('text.'.length) };
  });
  if (fuzzyLevel !== undefined) checkFuzzyLevel(fuzzyLevel, texts);
  return texts.filter((text) => text.terms.length > 0);
}

/** The platform refuses a fuzzyLevel above the default level of any term searched for. */
function checkFuzzyLevel(fuzzyLevel: number, texts: readonly TextExpression[]): void {
  const above = texts.flatMap((text) => text.terms).find(({ word }) => fuzzyLevel > defaultFuzzyLevel(word));
  if (above) throw new SearchError('fuzzyLevel', `fuzzyLevel ${fuzzyLevel} is above the platform default ${defaultFuzzyLevel(above.word)} for the term '${above.word}'.`);
  if (fuzzyLevel > MAX_FUZZY_LEVEL) throw new SearchError('fuzzyLevel', `fuzzyLevel ${fuzzyLevel} is above the highest platform default ${MAX_FUZZY_LEVEL}.`);
}

function filterOf(source: ExpressionSource, fields: FieldCatalog): SearchExpression {
  const { field, condition } = parseFilterExpression(source);
  return conditionOf(condition, fieldAt(field, fields, source), source);
}

function facetsOf(query: QueryParameters, fields: FieldCatalog, facetFilter: SearchExpression | undefined): FacetRequest[] {
  const limit = query.number('facetLimit') ?? DEFAULT_FACET_LIMIT;
  const names = new Set<string>();
  return query.all('facet').map((text) => {
    const source = nonEmpty({ parameter: 'facet', text });
    const expression = parseFacetExpression(source);
    const name = expression.alias ?? text;
    if (names.has(name)) throw malformedParameter('facet', `Two facets are named '${name}'; rename one with 'as <name>'.`);
    names.add(name);
    return facetOf(name, expression, fields, facetFilter, limit);
  });
}

function facetOf(name: string, expression: FacetExpression, fields: FieldCatalog, filter: SearchExpression | undefined, limit: number): FacetRequest {
  const { source, condition } = expression;
  const field = fieldAt(expression.field, fields, source);
  const base = { name, scope: 'query' as const, ...(filter ? { filter } : {}) };
  if (condition === undefined) {
    if (field.kind === 'other') throw malformedParameter('facet', `The field '${field.path}' holds no numbers or text, so it has no terms to count.`);
    return { kind: 'distinct', ...base, field, limit, order: { by: 'count', direction: -1 } };
  }
  const counted = conditionOf(condition, field, source);
  const isRanges = condition.kind === 'values' && condition.items.every((item) => item.kind === 'range');
  if (!isRanges) return { kind: 'count', name, scope: 'query', filter: allOf([filter, counted])! };
  if (field.kind === 'text') throw malformedParameter('facet', `Range facets count numbers or date-times, but the field '${field.path}' holds text.`);
  const ranges = condition.items.map((item) => {
    const [from, to] = item.kind === 'range' ? [item.from && valueOf(item.from, field), item.to && valueOf(item.to, field)] : [];
    return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
  });
  return { kind: 'ranges', ...base, field, ranges };
}

/** A filter condition as an expression: any of its values and ranges (both ends included) may match. */
function conditionOf(condition: Condition, field: Field, source: ExpressionSource): SearchExpression {
  if (condition.kind === 'exists') return { kind: 'exists', field };
  if (condition.kind === 'missing') return { kind: 'not', of: [{ kind: 'exists', field }] };
  if (field.kind === 'other') throw malformedParameter(source.parameter, `The field '${field.path}' holds no numbers or text, so only exists and missing apply to it.`);
  const values = condition.items.flatMap((item) => (item.kind === 'term' ? [checked(item, item, field, source)] : []));
  const ranges = condition.items.flatMap((item): SearchExpression[] => {
    if (item.kind !== 'range') return [];
    const [from, to] = [item.from && checked(item.from, item, field, source), item.to && checked(item.to, item, field, source)];
    if (from !== undefined && to !== undefined && from > to) throw syntaxError(source, `The lower end of ${item.text} is above its upper end`, item.column);
    return [{ kind: 'range', field, ...(from === undefined ? {} : { gte: from }), ...(to === undefined ? {} : { lte: to }) }];
  });
  return anyOf([...(values.length > 0 ? [{ kind: 'exact' as const, field, values, caseInsensitive: false }] : []), ...ranges]);
}

/** A value of the expression as its field compares it; `item` is where an error points. */
function checked(scalar: { value: Scalar; text: string }, item: ValueItem, field: Field, source: ExpressionSource): SearchValue {
  const value = valueOf(scalar, field);
  if (value !== undefined) return value;
  const detail = `The field '${field.path}' holds ${KIND_NOUNS[field.kind]}, so expected ${EXPECTED_VALUES[field.kind]} but found ${scalar.text}`;
  throw syntaxError(source, detail, item.column);
}

function valueOf({ value }: { value: Scalar }, field: Field): SearchValue | undefined {
  if (field.kind === 'datetime') return typeof value === 'string' ? instantOf(value) : undefined;
  return (field.kind === 'number' && typeof value === 'number') || (field.kind === 'text' && typeof value === 'string') ? value : undefined;
}

const KIND_NOUNS: Record<FieldKind, string> = { number: 'numbers', text: 'text', datetime: 'date-times', other: 'no numbers or text' };
const EXPECTED_VALUES: Record<FieldKind, string> = { number: 'a number', text: 'a "quoted string"', datetime: 'a "quoted ISO 8601 date-time"', other: 'exists or missing' };

function fieldAt(reference: FieldReference, fields: FieldCatalog, source: ExpressionSource): Field {
  const field = fields.lookup(reference.path);
  if (!field) throw malformedParameter(source.parameter, `Unknown field '${reference.path}'.`);
  return field;
}

function nonEmpty(source: ExpressionSource): ExpressionSource {
  if (source.text.trim() === '') throw malformedParameter(source.parameter, 'The expression is empty.');
  return source;
}

/** All of them (undefined when none): one stands for itself. */
function allOf(expressions: readonly (SearchExpression | undefined)[]): SearchExpression | undefined {
  const of = expressions.filter((expression) => expression !== undefined);
  return of.length <= 1 ? of[0] : { kind: 'and', of };
}

function anyOf(expressions: readonly SearchExpression[]): SearchExpression {
  return expressions.length === 1 ? expressions[0]! : { kind: 'or', of: expressions };
}
