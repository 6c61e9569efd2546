import { collectPage, type Page, type PageBytes } from '../domain/query';
import type { QueryParameters } from '../domain/query-parameters';
import type { Resource } from '../domain/resource';
import { resourceJsonSchema } from '../domain/resource-fields';
import { compileSearchApiPattern, facetResultOf, type FacetResult } from '../domain/search';
import type { ResourceQueryStore } from '../store/resource-store';
import type { SearchIndex } from '../store/search-index';

/**
 * Search over a project's resources (GET /{projectKey}/resource/searchApiPattern): its parameters
 * compile to the search model, which the search engine answers with the page's ids, the total and
 * the facets' counts; the bodies are read from the table by id, so they are current, and a
 * resource deleted since it was indexed is left out.
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
    const position = new Map(hits.ids.map((id, index) => [id, index]));
    const inIndexOrder = (a: unknown, b: unknown) => position.get((a as Resource).id)! - position.get((b as Resource).id)!;
    const read = hits.ids.length === 0 ? [] : this.store.read(projectKey, { ids: hits.ids });
    const { results } = await collectPage(read, { matches: () => true, compare: inIndexOrder }, { limit: hits.ids.length, offset: 0, withTotal: false }, { bytes });
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
}
