import type { ExpressionSource } from './expression-ast';
import { parseFilterExpression } from './expression-parser';
import { checkFacets } from './facets';
import { FieldCatalog } from './field-catalog';
import { checkFilter } from './filter-expression';
import type { FieldFilter, SearchRequest } from './search-request';
import { parseSearchParams, type RawParams } from './search-params';

/**
 * Checks the search parameters against the resource's JSON Schema, which says which fields exist
 * and whether they hold numbers or text. Throws SearchError for anything wrong, before the engine
 * is asked.
 */
export function compileSearch(params: RawParams, jsonSchema: object): SearchRequest {
  const request = parseSearchParams(params);
  const fields = new FieldCatalog(jsonSchema);
  const filters = (sources: readonly ExpressionSource[]): FieldFilter[] =>
    sources.map(parseFilterExpression).map((expression) => checkFilter(expression, fields));
  return {
    text: request.text,
    queryFilters: filters(request.queryFilters),
    resultFilters: filters(request.resultFilters),
    facetFilters: filters(request.facetFilters),
    facets: checkFacets(request.facets, fields),
  };
}
