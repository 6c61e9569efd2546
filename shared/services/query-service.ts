import {
  anyMatch,
  collectPage,
  compileSort,
  planQuery,
  QueryBudget,
  resourceFields,
  type Page,
  type PageRequest,
  type QueryPlan,
} from '../domain/query';
import { resourceJsonSchema, type Resource } from '../domain/resource';
import { compileSearch, type FacetResult } from '../domain/search';
import type { QueryParameters } from '../http/query-parameters';
import type { ResourceStore } from '../store/resource-store';

/**
 * Queries and search over a project's resources. DynamoDB cannot evaluate commercetools
 * predicates, so every query is evaluated here, in full, over the resources the plan says can
 * match, in the order the store can give them (query-plan.ts): ids and keys are read directly,
 * id and createdAt orders and ranges are ranges of the table's sort key, and an unfiltered total
 * is the project's counter. Whatever else a query needs is read within the budget, past which it
 * answers 400 `QueryTimedOut`.
 */
export class ResourceQueryService {
  constructor(
    private readonly store: ResourceStore,
    private readonly budget: QueryBudget = QueryBudget.fromEnvironment(),
  ) {}

  /** Rows 1 and 12. */
  async query(projectKey: string, query: QueryParameters): Promise<Page<Resource>> {
    const plan = planQuery({ where: query.all('where'), sort: query.all('sort'), variables: variablesOf(query) });
    const page = pageOf(query);
    const named = await this.namedCandidates(projectKey, plan);
    if (named) return collectPage(named, plan, page, { budget: this.budget });

    // The counters give an unfiltered total, and tell whether ids follow creation time.
    const countedTotal = page.withTotal && !plan.filtered;
    const stats = countedTotal || plan.usesCreationOrder ? await this.store.stats(projectKey) : undefined;
    const access = plan.access(stats?.idsInCreationOrder ?? false);
    const total = countedTotal ? stats?.total : undefined;
    const read = total === undefined ? page : { ...page, withTotal: false };
    const documents = this.store.scan(projectKey, {
      ...access,
      // About one page, when the stream's order lets the page end early.
      ...(access.streamOrder && !read.withTotal ? { firstReadSize: page.offset + page.limit + 1 } : {}),
    });
    const answer = await collectPage(documents, { ...plan, streamOrder: access.streamOrder }, read, { budget: this.budget });
    return total === undefined ? answer : { ...answer, total };
  }

  /** Row 5: whether any resource matches; reading stops at the first match. */
  async exists(projectKey: string, query: QueryParameters): Promise<boolean> {
    const plan = planQuery({ where: query.all('where'), sort: [], variables: variablesOf(query) });
    const named = await this.namedCandidates(projectKey, plan);
    if (named) return anyMatch(named, plan.matches, this.budget);
    const stats = plan.usesCreationOrder ? await this.store.stats(projectKey) : undefined;
    const access = plan.access(stats?.idsInCreationOrder ?? false);
    return anyMatch(this.store.scan(projectKey, { ...access, firstReadSize: 100 }), plan.matches, this.budget);
  }

  /** Row 4: full-text, filters and facets. Facets count over every resource of the facet base. */
  async search(projectKey: string, query: QueryParameters): Promise<Page<Resource> & { facets: Record<string, FacetResult> }> {
    const search = compileSearch(query.entries, resourceJsonSchema());
    const sort = query.all('sort');
    const compare = compileSort([...sort], resourceFields());
    const inIdOrder = sort.every((entry) => /^\s*id\s+asc\s*$/i.test(entry));
    const facets = search.facets;
    const page = await collectPage(
      this.store.scan(projectKey),
      { matches: search.matchesResults, compare, ...(inIdOrder ? { streamOrder: compare } : {}) },
      pageOf(query),
      { budget: this.budget, ...(facets ? { observe: (resource: Resource) => search.matchesFacetBase(resource) && facets.add(resource) } : {}) },
    );
    return { ...page, facets: facets?.result() ?? {} };
  }

  /** The only resources that can match, when the predicate names them by id or key. */
  private async namedCandidates(projectKey: string, plan: QueryPlan): Promise<Resource[] | undefined> {
    if (plan.ids) return this.store.getMany(projectKey, plan.ids);
    if (plan.keys) return this.store.getManyByKey(projectKey, plan.keys);
    return undefined;
  }
}

/** `var.<name>=<value>` parameters, repeatable, as the predicates' `:name` variables. */
function variablesOf(query: QueryParameters): Record<string, readonly string[]> {
  return Object.fromEntries(query.matching(/^var\.[a-zA-Z0-9]+$/).map(([name, values]) => [name.slice('var.'.length), values]));
}

function pageOf(query: QueryParameters): PageRequest {
  return {
    limit: query.number('limit') ?? 20,
    offset: query.number('offset') ?? 0,
    withTotal: query.boolean('withTotal') ?? true,
  };
}
