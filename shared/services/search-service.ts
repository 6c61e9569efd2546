import { collectPage, compileSort, QueryBudget, resourceFields, type Page } from '../domain/query';
import type { QueryParameters } from '../domain/query-parameters';
import type { Resource } from '../domain/resource';
import { resourceJsonSchema } from '../domain/resource-fields';
import { compileSearch, type FacetResult } from '../domain/search';
import type { ResourceQueryStore } from '../store/resource-store';
import { FULL_READ_SIZE, pageRequestOf } from './query-service';

/**
 * Search over a project's resources (row 4): full-text, filters and facets, evaluated here over
 * every resource of the project within the query budget. Apart from the `where` queries
 * (query-service.ts), so that neither function carries the other's language.
 */
export class ResourceSearchService {
  constructor(
    private readonly store: ResourceQueryStore,
    private readonly budget: QueryBudget = QueryBudget.fromEnvironment(),
  ) {}

  /** Row 4: full-text, filters and facets. Facets count over every resource of the facet base. */
  async search(projectKey: string, query: QueryParameters): Promise<Page<Resource> & { facets: Record<string, FacetResult> }> {
    const search = compileSearch(query.entries, resourceJsonSchema());
    const sort = query.all('sort');
    const compare = compileSort([...sort], resourceFields());
    const inIdOrder = sort.every((entry) => /^\s*id\s+asc\s*$/i.test(entry));
    const facets = search.facets;
    const page = await collectPage(
      this.store.scan(projectKey, { firstReadSize: FULL_READ_SIZE }),
      { matches: search.matchesResults, compare, ...(inIdOrder ? { streamOrder: compare } : {}) },
      pageRequestOf(query),
      { budget: this.budget, ...(facets ? { observe: (resource: Resource) => search.matchesFacetBase(resource) && facets.add(resource) } : {}) },
    );
    return { ...page, facets: facets?.result() ?? {} };
  }
}
