import { collectPage, type Page, type PageBytes } from '../domain/query';
import type { QueryParameters } from '../domain/query-parameters';
import type { Resource } from '../domain/resource';
import { resourceJsonSchema } from '../domain/resource-fields';
import { compileSearchApiPattern, facetResultOf, type FacetResult } from '../domain/search';
import { compileProductSearch, productSearchFacetResults } from '../domain/search/product-search';
import type { ResourcePagedSearchResponse } from '../domain/search/product-search-answer';
import { FieldCatalog } from '../domain/search/field-catalog';
import type { ResourceQueryStore } from '../store/resource-store';
import type { SearchIndex } from '../store/search-index';

/**
 * Search over a project's resources: GET /{projectKey}/resource/searchApiPattern's parameters and
 * POST /{projectKey}/resource/search's body compile to the one search model, which the search
 * engine answers with the page's ids, the total and the facets' counts; the bodies are read from
 * the table by id, so they are current, and a resource deleted since it was indexed is left out.
 */
export class ResourceSearchService {
  constructor(
    private readonly index: SearchIndex,
    private readonly store: ResourceQueryStore,
  ) {}

  /** `bytes` bounds the page while it is read, as for queries. */
  async search(projectKey: string, query: QueryParameters, bytes?: PageBytes): Promise<Page<Resource> & { facets: Record<string, FacetResult> }> {
    const request = compileSearchApiPattern(query, resourceJsonSchema());
    const hits = await this.index.search(projectKey, request);
    const results = await this.readInOrder(projectKey, hits.ids, bytes);
    const { limit, offset } = request.page;
    return {
      limit,
      offset,
      count: results.length,
      ...(hits.total === undefined ? {} : { total: hits.total }),
      results,
      facets: Object.fromEntries(request.facets.map((facet, index) => [facet.name, facetResultOf(facet, hits.facets[index]!)])),
    };
  }

  /**
   * POST /{projectKey}/resource/search: Product Search's request. Ids first, as Product Search
   * answers; with `resourceParameters`, each current resource read from the table by id in the
   * engine's order (one deleted since it was indexed is left out).
   */
  async productSearch(projectKey: string, body: unknown, bytes?: PageBytes): Promise<ResourcePagedSearchResponse> {
    const { request, withResources } = compileProductSearch(body, new FieldCatalog(resourceJsonSchema()));
    const hits = await this.index.search(projectKey, request);
    const results = withResources ? (await this.readInOrder(projectKey, hits.ids, bytes)).map((resource) => ({ id: resource.id, resource })) : hits.ids.map((id) => ({ id }));
    return { total: hits.total!, offset: request.page.offset, limit: request.page.limit, facets: productSearchFacetResults(request.facets, hits.facets), results };
  }

  /** The resources of these ids as the table holds them now, in the order of the ids; those deleted are left out. */
  private async readInOrder(projectKey: string, ids: readonly string[], bytes?: PageBytes): Promise<Resource[]> {
    if (ids.length === 0) return [];
    const position = new Map(ids.map((id, index) => [id, index]));
    const inOrder = (a: unknown, b: unknown) => position.get((a as Resource).id)! - position.get((b as Resource).id)!;
    const read = this.store.read(projectKey, { ids: [...ids] });
    return (await collectPage(read, { matches: () => true, compare: inOrder }, { limit: ids.length, offset: 0, withTotal: false }, { bytes })).results;
  }
}
