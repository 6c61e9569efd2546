/**
 * The reference search: the request the domain checked, evaluated document by document in
 * memory. The engine (shared/store/postgres) is held to its answers (test/integration/search-differential.test.ts).
 *
 *   for (const doc of documents) {
 *     if (search.matchesFacetBase(doc)) search.facets?.add(doc);
 *     if (search.matchesResults(doc)) results.push(doc);
 *   }
 *
 * The three filter parameters differ in what they restrict, as in commercetools:
 * `filter` the results only, `filter.facets` the facet counts only, `filter.query` both.
 */
import { compileSort } from '../../../shared/domain/query';
import { resourceFields } from '../../../shared/domain/query';
import { compileSearch, type FacetResult, type FieldFilter, type RawParams } from '../../../shared/domain/search';
import { facetAccumulator, type FacetAccumulator } from './facet-counters';
import { allOf, conditionPredicate, textPredicate } from './predicates';

export type { FacetAccumulator } from './facet-counters';

export interface CompiledSearch {
  /** Full text, `filter.query` and `filter`. */
  matchesResults(doc: unknown): boolean;
  /** Full text, `filter.query` and `filter.facets`: the documents facets count. */
  matchesFacetBase(doc: unknown): boolean;
  /** Undefined when the request asks for no facet. */
  facets: FacetAccumulator | undefined;
}

/** Throws SearchError as the domain does: it is the domain that checks. */
export function compileReferenceSearch(params: RawParams, jsonSchema: object): CompiledSearch {
  const request = compileSearch(params, jsonSchema);
  const filtersOf = (filters: readonly FieldFilter[]) => allOf(filters.map((filter) => conditionPredicate(filter.condition, filter.field)));
  const shared = allOf([filtersOf(request.queryFilters), textPredicate(request.text)]);
  const resultFilter = filtersOf(request.resultFilters);
  const facetFilter = filtersOf(request.facetFilters);
  return {
    matchesResults: (doc) => resultFilter(doc) && shared(doc),
    matchesFacetBase: (doc) => facetFilter(doc) && shared(doc),
    facets: request.facets.length > 0 ? facetAccumulator(request.facets) : undefined,
  };
}

export interface ReferenceAnswer {
  total: number;
  /** The page's ids, sorted by `sort` (then id), or by id without one. */
  ids: string[];
  facets: Record<string, FacetResult>;
}

/** A whole search over the given resources, paged as the API pages. */
export function referenceSearch(
  resources: readonly { id: string }[],
  params: RawParams,
  page: { limit: number; offset: number; sort?: readonly string[] },
  jsonSchema: object,
): ReferenceAnswer {
  const search = compileReferenceSearch(params, jsonSchema);
  const matches: { id: string }[] = [];
  for (const resource of resources) {
    if (search.matchesFacetBase(resource)) search.facets?.add(resource);
    if (search.matchesResults(resource)) matches.push(resource);
  }
  matches.sort(compileSort(page.sort ?? [], resourceFields()));
  return {
    total: matches.length,
    ids: matches.slice(page.offset, page.offset + page.limit).map((resource) => resource.id),
    facets: search.facets?.result() ?? {},
  };
}
