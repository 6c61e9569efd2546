import { collectPage, compileSort, planAccess, QueryBudget, resourceFields, type DocumentComparator, type Page, type PageRequest, type PlannedAccess } from '../domain/query';
import type { QueryParameters } from '../domain/query-parameters';
import type { Resource } from '../domain/resource';
import { resourceJsonSchema } from '../domain/resource-fields';
import { compileSearch, type FacetResult } from '../domain/search';
import type { ResourceQueryStore } from '../store/resource-store';
import { FULL_READ_SIZE } from './query-reads';
import { pageRequestOf } from './query-service';

/**
 * Search over a project's resources (GET /{projectKey}/resource/searchApiPattern): full-text, filters and facets, evaluated here over
 * the resources `filter.query` allows — named ids or keys, or a range of ids, `createdAt` or (with
 * the deployment's index) `lastModifiedAt` — else every resource of the project, within the query
 * budget. Apart from the `where` queries (query-service.ts), so that neither function carries the
 * other's language; both read the store through the same plan of access (store-access.ts).
 */
export class ResourceSearchService {
  private readonly budget: QueryBudget;

  constructor(
    private readonly store: ResourceQueryStore,
    budget: QueryBudget = QueryBudget.fromEnvironment(),
  ) {
    this.budget = budget.advising(QueryBudget.SEARCH_ADVICE);
  }

  /** Full-text, filters and facets. Facets count over every resource of the facet base. */
  async search(projectKey: string, query: QueryParameters): Promise<Page<Resource> & { facets: Record<string, FacetResult> }> {
    const search = compileSearch(query.entries, resourceJsonSchema());
    const sort = query.all('sort');
    const facets = search.facets;
    const page = pageRequestOf(query);
    // A page in the store's order ends early, unless a total or facets count every match.
    const endsEarly = !page.withTotal && !facets;
    const { documents, streamOrder } = await this.candidates(projectKey, planAccess(search.narrowing, sort), page, endsEarly);
    const answer = await collectPage(
      documents,
      { matches: search.matchesResults, compare: compileSort([...sort], resourceFields()), ...(streamOrder ? { streamOrder } : {}) },
      page,
      { budget: this.budget, ...(facets ? { observe: (resource: Resource) => search.matchesFacetBase(resource) && facets.add(resource) } : {}) },
    );
    return { ...answer, facets: facets?.result() ?? {} };
  }

  /**
   * The only resources that can match, read as the plan says: named ones directly; a
   * `lastModifiedAt` range, or its order for a page that ends early, from the index when the
   * deployment has one (every resource there is a read of its own, so not to read them all);
   * else a range of the table, in id order or, for `createdAt`, in creation order.
   */
  private async candidates(
    projectKey: string,
    plan: PlannedAccess,
    page: PageRequest,
    endsEarly: boolean,
  ): Promise<{ documents: Iterable<Resource> | AsyncIterable<Resource>; streamOrder?: DocumentComparator }> {
    if (plan.ids) return { documents: await this.store.getMany(projectKey, plan.ids) };
    if (plan.keys) return { documents: await this.store.getManyByKey(projectKey, plan.keys) };
    const firstReadSize = (order: DocumentComparator | undefined) => (order && endsEarly ? page.offset + page.limit + 1 : FULL_READ_SIZE);
    if (plan.lastModifiedAccess && (plan.lastModifiedAccess.bounded || endsEarly)) {
      const { bounded: _, streamOrder, ...range } = plan.lastModifiedAccess;
      const documents = this.store.scanByLastModified?.(projectKey, { ...range, firstReadSize: firstReadSize(streamOrder) });
      if (documents) return { documents, ...(streamOrder ? { streamOrder } : {}) };
    }
    const idsInCreationOrder = plan.usesCreationOrder && (await this.store.stats(projectKey)).idsInCreationOrder;
    const { streamOrder, ...range } = plan.access(idsInCreationOrder);
    return { documents: this.store.scan(projectKey, { ...range, firstReadSize: firstReadSize(streamOrder) }), ...(streamOrder ? { streamOrder } : {}) };
  }
}
