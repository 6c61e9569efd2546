/** The search language of `GET /{projectKey}/resource/searchApiPattern`, free of HTTP and storage. */
export { compileSearch } from './compile-search';
export { FacetRange, FacetResult, FacetTerm, FilterFacetResult, RangeFacetResult, TermFacetResult } from './facet-results';
export { facetRange, termFacetResult, type RangeStatistics } from './facets';
export { FieldCatalog, type Field, type FieldKind } from './field-catalog';
export { projectResource, type ProjectedValue, type ResourceProjection } from './projection';
export { SearchError } from './search-error';
export type { RawParams } from './search-params';
export type { FacetRequest, FieldFilter, NumberRange, SearchRequest } from './search-request';
export { defaultFuzzyLevel, isWithinEditDistance, letters, maxEditsOf, tokenize, type TextQuery } from './text-match';
