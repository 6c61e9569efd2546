/** The search engine of `GET /{projectKey}/resource/searchApiPattern`, free of HTTP and storage. */
export { compileSearch, type CompiledSearch } from './compile-search';
export { FacetRange, FacetResult, FacetTerm, FilterFacetResult, RangeFacetResult, TermFacetResult } from './facet-results';
export type { FacetAccumulator } from './facets';
export { SearchError } from './search-error';
export type { RawParams } from './search-params';
export { defaultFuzzyLevel, isWithinEditDistance, tokenize } from './text-match';
