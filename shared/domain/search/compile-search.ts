import type { DocumentPredicate } from '../language/document-predicate';
import { allOf, rememberLastAnswer } from './document-values';
import type { Narrowing } from '../query/store-access';
import type { ExpressionSource, FilterExpression } from './expression-ast';
import { parseFilterExpression } from './expression-parser';
import { compileFacets, type FacetAccumulator } from './facets';
import { FieldCatalog } from './field-catalog';
import { compileFilter } from './filter-expression';
import { narrowingOfFilters } from './search-narrowing';
import { parseSearchParams, type RawParams } from './search-params';
import { compileTextQuery } from './text-match';

/**
 * A search, checked and compiled once per request, then asked about each document in turn:
 *
 *   for (const doc of documents) {
 *     if (search.matchesFacetBase(doc)) search.facets?.add(doc);
 *     if (search.matchesResults(doc)) results.push(doc);
 *   }
 *
 * The three filter parameters differ in what they restrict, as in commercetools:
 * `filter` the results only, `filter.facets` the facet counts only, `filter.query` both.
 */
export interface CompiledSearch {
  /** Full text, `filter.query` and `filter`. */
  matchesResults(doc: unknown): boolean;
  /** Full text, `filter.query` and `filter.facets`: the documents facets count. */
  matchesFacetBase(doc: unknown): boolean;
  /** Undefined when the request asks for no facet. */
  facets: FacetAccumulator | undefined;
  /** The resources `filter.query` allows, in the store's terms: reading only those changes no answer. */
  narrowing: Narrowing;
}

/**
 * Compiles the search parameters against the resource's JSON Schema, which says which fields
 * exist and whether they hold numbers or text. Throws SearchError for anything wrong, before
 * any document is read.
 */
export function compileSearch(params: RawParams, jsonSchema: object): CompiledSearch {
  const request = parseSearchParams(params);
  const fields = new FieldCatalog(jsonSchema);
  const filtersOf = (expressions: readonly FilterExpression[]): DocumentPredicate =>
    allOf(expressions.map((expression) => compileFilter(expression, fields)));
  const parsed = (sources: readonly ExpressionSource[]) => sources.map(parseFilterExpression);

  const textMatches = compileTextQuery(request.text);
  const queryExpressions = parsed(request.queryFilters);
  const queryFilter = filtersOf(queryExpressions);
  const resultFilter = filtersOf(parsed(request.resultFilters));
  const facetFilter = filtersOf(parsed(request.facetFilters));
  const facets = request.facets.length > 0 ? compileFacets(request.facets, fields) : undefined;

  // Both questions share the full-text match, the costly part; it runs once per document.
  // Cheap filters go first so that the text is read only for documents they let through.
  const sharedPart = rememberLastAnswer(allOf([queryFilter, textMatches]));
  return {
    matchesResults: allOf([resultFilter, sharedPart]),
    matchesFacetBase: allOf([facetFilter, sharedPart]),
    facets,
    narrowing: narrowingOfFilters(queryExpressions),
  };
}
