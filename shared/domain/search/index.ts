/** Search, free of HTTP and storage: the one model both endpoints build (search-model.ts) and searchApiPattern's compiler to it. */
export { searchValueOf, searchValuesAt } from './document-values';
export { FacetRange, FacetResult, FacetTerm, facetResultOf, FilterFacetResult, RangeFacetResult, TermFacetResult } from './facet-results';
export { FieldCatalog, type Field, type FieldKind } from './field-catalog';
export { projectResource, type ProjectedValue, type ResourceProjection } from './projection';
export { compileSearchApiPattern, DEFAULT_FACET_LIMIT, MAX_FACET_LIMIT } from './search-api-pattern';
export { SearchError } from './search-error';
export { scoringTexts } from './search-model';
export type * from './search-model';
export { defaultFuzzyLevel, isStemmable, isWithinEditDistance, letters, MAX_WORD_LENGTH, stemmerOf, STEMMING_DICTIONARIES, tokenize } from './text-match';
