import { collectPage, compileSort, planQuery, resourceFields, type Page, type PageRequest } from '../domain/query';
import { resourceJsonSchema, type Resource } from '../domain/resource';
import { compileSearch, type FacetResult } from '../domain/search';
import type { QueryParameters } from '../domain/query-parameters';
import type { ResourceStore } from '../store/resource-store';

/**
 * Queries and search over a project's resources. DynamoDB cannot evaluate commercetools
 * predicates, so the store streams the project's items (projected, in id order, from the lowest
 * id the predicate admits) and the plan is evaluated here, holding one page window at a time.
 */
export class ResourceQueryService {
  constructor(private readonly store: ResourceStore) {}

  /** Rows 1 and 12. */
  async query(projectKey: string, query: QueryParameters): Promise<Page<Resource>> {
    const plan = planQuery({ where: query.all('where'), sort: query.all('sort'), variables: variablesOf(query) });
    return collectPage(this.store.scan(projectKey, { fromId: plan.fromId }), plan, pageRequestOf(query));
  }

  /** Row 5: whether any resource matches; reading stops at the first match. */
  async exists(projectKey: string, query: QueryParameters): Promise<boolean> {
    const plan = planQuery({ where: query.all('where'), sort: [], variables: variablesOf(query) });
    for await (const resource of this.store.scan(projectKey, { fromId: plan.fromId })) {
      if (plan.matches(resource)) return true;
    }
    return false;
  }

  /** Row 4: full-text, filters and facets. Facets count over every resource of the facet base. */
  async search(projectKey: string, query: QueryParameters): Promise<Page<Resource> & { facets: Record<string, FacetResult> }> {
    const search = compileSearch(query.entries, resourceJsonSchema());
    const sort = query.all('sort');
    const plan = {
      matches: search.matchesResults,
      compare: compileSort([...sort], resourceFields()),
      inStoreOrder: sort.every((entry) => /^\s*id\s+asc\s*$/i.test(entry)),
    };
    const facets = search.facets;
    const page = await collectPage(
      this.store.scan(projectKey),
      plan,
      pageRequestOf(query),
      facets && ((resource) => search.matchesFacetBase(resource) && facets.add(resource)),
    );
    return { ...page, facets: facets?.result() ?? {} };
  }
}

/** `var.<name>=<value>` parameters, repeatable, as the predicates' `:name` variables. */
function variablesOf(query: QueryParameters): Record<string, readonly string[]> {
  return Object.fromEntries(query.matching(/^var\.[a-zA-Z0-9]+$/).map(([name, values]) => [name.slice('var.'.length), values]));
}

function pageRequestOf(query: QueryParameters): PageRequest {
  return {
    limit: query.number('limit') ?? 20,
    offset: query.number('offset') ?? 0,
    withTotal: query.boolean('withTotal') ?? true,
  };
}
