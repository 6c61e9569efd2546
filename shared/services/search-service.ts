import { collectPage, compileSort, planRead, QueryBudget, resourceFields, type Page, type PageBytes } from '../domain/query';
import type { QueryParameters } from '../domain/query-parameters';
import type { Resource } from '../domain/resource';
import { resourceJsonSchema } from '../domain/resource-fields';
import { compileSearch, type FacetResult } from '../domain/search';
import type { ResourceQueryStore } from '../store/resource-store';
import { firstReadSize, pageRequestOf } from './query-service';

/**
 * Search over a project's resources (GET /{projectKey}/resource/searchApiPattern): full-text, filters and facets, evaluated here over
 * the one store read `filter.query` allows — named ids or keys, or a range of ids, `createdAt` or
 * `lastModifiedAt` — else every resource of the project, within the query budget. Apart from the
 * `where` queries (query-service.ts), so that neither function carries the other's language; both
 * read the store through the same plan of reads (store-access.ts).
 */
export class ResourceSearchService {
  private readonly budget: QueryBudget;

  constructor(
    private readonly store: ResourceQueryStore,
    budget: QueryBudget = QueryBudget.fromEnvironment(),
  ) {
    this.budget = budget.advising(QueryBudget.SEARCH_ADVICE);
  }

  /** Full-text, filters and facets. Facets count over every resource of the facet base. `bytes` bounds the page while it is read. */
  async search(projectKey: string, query: QueryParameters, bytes?: PageBytes): Promise<Page<Resource> & { facets: Record<string, FacetResult> }> {
    const search = compileSearch(query.entries, resourceJsonSchema());
    const sort = query.all('sort');
    const facets = search.facets;
    const page = pageRequestOf(query);
    // A total or facets count every match: then the page cannot end early.
    const readsEveryMatch = page.withTotal || facets !== undefined;
    const { read, streamOrder } = planRead(search.narrowing, sort, { lastModifiedIndex: this.store.lastModifiedIndex, readsEveryMatch });
    const answer = await collectPage(
      this.store.read(projectKey, read, readsEveryMatch ? undefined : firstReadSize(streamOrder, page)),
      { matches: search.matchesResults, compare: compileSort([...sort], resourceFields()), ...(streamOrder ? { streamOrder } : {}) },
      page,
      { budget: this.budget, bytes, ...(facets ? { observe: (resource: Resource) => search.matchesFacetBase(resource) && facets.add(resource) } : {}) },
    );
    return { ...answer, facets: facets?.result() ?? {} };
  }
}
