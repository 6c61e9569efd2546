import { collectPage, resourceFields, sortKeys, type Page, type PageBytes } from '../domain/query';
import type { QueryParameters } from '../domain/query-parameters';
import type { Resource } from '../domain/resource';
import { resourceJsonSchema } from '../domain/resource-fields';
import { compileSearch, type FacetResult } from '../domain/search';
import { compileProductSearch, productSearchFacetResults } from '../domain/search/product-search';
import type { ResourcePagedSearchResponse } from '../domain/search/product-search-answer';
import { FieldCatalog } from '../domain/search/field-catalog';
import type { ResourceQueryStore } from '../store/resource-store';
import type { SearchIndex } from '../store/search-index';
import { pageRequestOf } from './query-service';

/**
 * Search over a project's resources (GET /{projectKey}/resource/searchApiPattern): full-text,
 * filters and facets. The search engine answers which resources, in which order, how many and
 * the facets; the bodies are read from the table by id, so they are current, and a resource
 * deleted since it was indexed is left out.
 */
export class ResourceSearchService {
  constructor(
    private readonly index: SearchIndex,
    private readonly store: ResourceQueryStore,
  ) {}

  /** `bytes` bounds the page while it is read, as for queries. */
  async search(projectKey: string, query: QueryParameters, bytes?: PageBytes): Promise<Page<Resource> & { facets: Record<string, FacetResult> }> {
    const request = compileSearch(query.entries, resourceJsonSchema());
    const sorts = query.all('sort');
    const sort = sorts.length > 0 ? sortKeys(sorts, resourceFields()) : [];
    const page = pageRequestOf(query);
    const hits = await this.index.search(projectKey, request, { ...page, sort });
    const position = new Map(hits.ids.map((id, index) => [id, index]));
    const inIndexOrder = (a: unknown, b: unknown) => position.get((a as Resource).id)! - position.get((b as Resource).id)!;
    const read = hits.ids.length === 0 ? [] : this.store.read(projectKey, { ids: hits.ids });
    const { results } = await collectPage(read, { matches: () => true, compare: inIndexOrder }, { limit: hits.ids.length, offset: 0, withTotal: false }, { bytes });
    return {
      limit: page.limit,
      offset: page.offset,
      count: results.length,
      ...(hits.total === undefined ? {} : { total: hits.total }),
      results,
      facets: hits.facets,
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
