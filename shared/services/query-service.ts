import {
  anyMatch,
  collectPage,
  planQuery,
  QueryBudget,
  type Page,
  type PageRequest,
  type QueryPlan,
  type StoreAccess,
} from '../domain/query';
import type { Resource } from '../domain/resource';
import type { QueryParameters } from '../domain/query-parameters';
import type { ResourceStore } from '../store/resource-store';

/**
 * Queries of a project's resources (search is search-service.ts). DynamoDB cannot evaluate commercetools
 * predicates, so every query is evaluated here, in full, over the resources the plan says can
 * match, in the order the store can give them (query-plan.ts): ids and keys are read directly,
 * id and createdAt orders and ranges are ranges of the table's sort key, lastModifiedAt orders and
 * ranges come from its optional index (when the deployment has it), and an unfiltered total is
 * the project's counter. Whatever else a query needs is read within the budget, past which it
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
    const page = pageRequestOf(query);
    const named = await this.namedCandidates(projectKey, plan);
    if (named) return collectPage(named, plan, page, { budget: this.budget });
    const byLastModified = this.lastModifiedPage(projectKey, plan, page);
    if (byLastModified) return byLastModified;

    // The counters give an unfiltered total, and tell whether ids follow creation time. They are
    // read alongside the page, which assumes what holds for every project without resources from
    // before the counters (docs/design.md); in the rare project where it does not, it is read again.
    // A total is worth taking from the counters only when the page can end early (else the read
    // counts anyway).
    const countedTotal = page.withTotal && !plan.filtered && plan.access(true).streamOrder !== undefined;
    if (!countedTotal && !plan.usesCreationOrder) return this.readPage(projectKey, plan, plan.access(false), page);
    const [stats, speculative] = await Promise.all([
      this.store.stats(projectKey),
      settled(this.readPage(projectKey, plan, plan.access(true), countedTotal ? { ...page, withTotal: false } : page)),
    ]);
    const total = countedTotal ? stats.total : undefined;
    if ((stats.idsInCreationOrder || !plan.usesCreationOrder) && (total !== undefined || !countedTotal)) {
      const answer = speculative.unwrap();
      return total === undefined ? answer : { ...answer, total };
    }
    const answer = await this.readPage(projectKey, plan, plan.access(stats.idsInCreationOrder), total === undefined ? page : { ...page, withTotal: false });
    return total === undefined ? answer : { ...answer, total };
  }

  /** One page of the plan's matches, read from the store range `access` names. */
  private readPage(projectKey: string, plan: QueryPlan, access: StoreAccess, page: PageRequest): Promise<Page<Resource>> {
    const documents = this.store.scan(projectKey, {
      ...access,
      // About one page, when the stream's order lets the page end early; else reads of at most
      // 2,000 resources, so that the budget's clock is looked at between reads of bounded time.
      firstReadSize: access.streamOrder && !page.withTotal ? page.offset + page.limit + 1 : FULL_READ_SIZE,
    });
    return collectPage(documents, { ...plan, streamOrder: access.streamOrder }, page, { budget: this.budget });
  }

  /**
   * A page read from the deployment's `lastModifiedAt` index, when it has one and the plan names a
   * range or order of it: about one page of reads for a sort on it. A total over the whole project
   * is read the usual way (the index would only add reads).
   */
  private lastModifiedPage(projectKey: string, plan: QueryPlan, page: PageRequest): Promise<Page<Resource>> | undefined {
    const access = plan.lastModifiedAccess;
    if (!access || (page.withTotal && !access.bounded)) return undefined;
    const { bounded: _, streamOrder, ...range } = access;
    const documents = this.store.scanByLastModified?.(projectKey, {
      ...range,
      // Inclusive bounds may hold an entry at each end that `>`/`<` exclude: two more, so that a
      // page inside a range is still complete after one read.
      firstReadSize: streamOrder && !page.withTotal ? page.offset + page.limit + 1 + (access.bounded ? 2 : 0) : FULL_READ_SIZE,
    });
    if (!documents) return undefined;
    return collectPage(documents, { ...plan, streamOrder }, page, { budget: this.budget });
  }

  /** Row 5: whether any resource matches; reading stops at the first match. */
  async exists(projectKey: string, query: QueryParameters): Promise<boolean> {
    const plan = planQuery({ where: query.all('where'), sort: [], variables: variablesOf(query) });
    const named = await this.namedCandidates(projectKey, plan);
    if (named) return anyMatch(named, plan.matches, this.budget);
    const { bounded, streamOrder: _, ...range } = plan.lastModifiedAccess ?? { bounded: false };
    const byLastModified = bounded ? this.store.scanByLastModified?.(projectKey, { ...range, firstReadSize: 100 }) : undefined;
    if (byLastModified) return anyMatch(byLastModified, plan.matches, this.budget);
    const stats = plan.usesCreationOrder ? await this.store.stats(projectKey) : undefined;
    const access = plan.access(stats?.idsInCreationOrder ?? false);
    return anyMatch(this.store.scan(projectKey, { ...access, firstReadSize: 100 }), plan.matches, this.budget);
  }

  /** The only resources that can match, when the predicate names them by id or key. */
  private async namedCandidates(projectKey: string, plan: QueryPlan): Promise<Resource[] | undefined> {
    if (plan.ids) return this.store.getMany(projectKey, plan.ids);
    if (plan.keys) return this.store.getManyByKey(projectKey, plan.keys);
    return undefined;
  }
}

/** The first read of a scan that may read everything (it doubles up to the store's maximum). */
export const FULL_READ_SIZE = 1_000;

/** A promise's outcome, kept until asked for (no unhandled rejection meanwhile). */
async function settled<T>(promise: Promise<T>): Promise<{ unwrap(): T }> {
  try {
    const value = await promise;
    return { unwrap: () => value };
  } catch (error) {
    return {
      unwrap: () => {
        throw error;
      },
    };
  }
}

/** `var.<name>=<value>` parameters, repeatable, as the predicates' `:name` variables. */
function variablesOf(query: QueryParameters): Record<string, readonly string[]> {
  return Object.fromEntries(query.matching(/^var\.[a-zA-Z0-9]+$/).map(([name, values]) => [name.slice('var.'.length), values]));
}

/** `limit`, `offset` and `withTotal`, with the defaults of the commercetools family. */
export function pageRequestOf(query: QueryParameters): PageRequest {
  return {
    limit: query.number('limit') ?? 20,
    offset: query.number('offset') ?? 0,
    withTotal: query.boolean('withTotal') ?? true,
  };
}
