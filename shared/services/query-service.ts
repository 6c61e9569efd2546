import { anyMatch, checkSort, collectPage, pageRequestOf, planQuery, QueryBudget, type Page, type PageBytes, type PageRequest } from '../domain/query';
import type { QueryParameters } from '../domain/query-parameters';
import type { Resource } from '../domain/resource';
import type { ResourceQueryStore } from '../store/resource-store';

/**
 * Queries of a project's resources (search is search-service.ts). DynamoDB cannot evaluate
 * commercetools predicates, so every query is plan → read → filter: the plan (query-plan.ts) names
 * the one store read whose resources can match — ids, keys, a range of ids or createdAt in the
 * table, a range or order of the `lastModifiedAt` index — and the page is collected from it as it
 * is read (page-window.ts), within the budget past which it answers 400 `QueryTimedOut`. An
 * offset is read and passed over; an unfiltered total is the project's counter.
 */
export class ResourceQueryService {
  constructor(
    private readonly store: ResourceQueryStore,
    private readonly budget: QueryBudget = QueryBudget.fromEnvironment(),
  ) {}

  /** GET `/{projectKey}/resource` and `…/sorted-query-parameters`; `bytes` bounds the page while it is read. */
  async query(projectKey: string, query: QueryParameters, bytes?: PageBytes): Promise<Page<Resource>> {
    const page = pageRequestOf(query);
    const plan = planQuery({ where: query.all('where'), sort: query.all('sort'), variables: variablesOf(query), withTotal: page.withTotal }, this.store);
    const collecting = plan.totalFromCounter ? { ...page, withTotal: false } : page;
    const [answer, total] = await Promise.all([
      collectPage(this.store.read(projectKey, plan.read, firstReadSize(plan.streamOrder, collecting)), plan, collecting, { budget: this.budget, bytes }),
      plan.totalFromCounter ? this.store.countResources(projectKey) : undefined,
    ]);
    return total === undefined ? answer : { ...answer, total };
  }

  /** HEAD `/{projectKey}/resource`: whether any resource matches; reading stops at the first match. */
  async exists(projectKey: string, query: QueryParameters): Promise<boolean> {
    // HEAD takes GET's parameters: a sort is not needed to answer, but a bad one is refused as there.
    checkSort(query.all('sort'));
    const plan = planQuery({ where: query.all('where'), sort: [], variables: variablesOf(query), withTotal: false }, this.store);
    return anyMatch(this.store.read(projectKey, plan.read, EXISTS_FIRST_READ), plan.matches, this.budget);
  }
}

/** HEAD's first read (then doubling): a range whose first resources match answers for a few read units. */
const EXISTS_FIRST_READ = 5;

/**
 * How many items the store's first read fetches: about the page when the stream's order lets it
 * end early (one more to see it is final, one for each inclusive end of a range); else the store's
 * own size.
 */
export function firstReadSize(streamOrder: unknown, page: PageRequest): number | undefined {
  return streamOrder && !page.withTotal ? page.offset + page.limit + 2 : undefined;
}

/** `var.<name>=<value>` parameters, repeatable, as the predicates' `:name` variables. */
function variablesOf(query: QueryParameters): Record<string, readonly string[]> {
  return Object.fromEntries(query.matching(/^var\.[a-zA-Z0-9]+$/).map(([name, values]) => [name.slice('var.'.length), values]));
}
