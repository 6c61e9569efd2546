import {
  anyMatch,
  checkSort,
  collectPage,
  planQuery,
  QueryBudget,
  type Page,
  type PageRequest,
  type QueryPlan,
  type StoreAccess,
} from '../domain/query';
import {
  CHECKPOINT_MIN_AGE_MS,
  CheckpointFinder,
  DELETES_SEEN_WINDOW_MS,
  MAX_REPAIRED_DELETES,
  mergeCheckpoints,
  repairCheckpoints,
  startNear,
  type Checkpoint,
  type RecordedCheckpoints,
} from '../domain/query/position-checkpoints';
import type { Resource } from '../domain/resource';
import { logger } from '../observability/logger';
import type { QueryParameters } from '../domain/query-parameters';
import type { PassedEntry } from '../domain/query/position-checkpoints';
import type { ResourceQueryStore } from '../store/resource-store';
import { LastModifiedPages, RANGE_END_ENTRIES } from './last-modified-pages';
import { FULL_READ_SIZE, passOffset } from './query-reads';

/**
 * Queries of a project's resources (search is search-service.ts). DynamoDB cannot evaluate commercetools
 * predicates, so every query is evaluated here, in full, over the resources the plan says can
 * match, in the order the store can give them (query-plan.ts): ids and keys are read directly,
 * id and createdAt orders and ranges are ranges of the table's sort key (deep pages of the
 * creation order start from position checkpoints), lastModifiedAt orders and ranges come from its
 * optional index when the deployment has it (last-modified-pages.ts), and an unfiltered total is
 * the project's counter. Whatever else a query needs is read within the budget, past which it
 * answers 400 `QueryTimedOut`.
 */
export class ResourceQueryService {
  constructor(
    private readonly store: ResourceQueryStore,
    private readonly budget: QueryBudget = QueryBudget.fromEnvironment(),
    private readonly now: () => number = Date.now,
    /** How far the `lastModifiedAt` index may lag (last-modified-order.ts). */
    indexLagMs?: number,
  ) {
    this.byLastModified = new LastModifiedPages(store, budget, now, indexLagMs);
  }

  /** Pages read from the optional `lastModifiedAt` index. */
  private readonly byLastModified: LastModifiedPages;

  /** Rows 1 and 12. */
  async query(projectKey: string, query: QueryParameters): Promise<Page<Resource>> {
    const plan = planQuery({ where: query.all('where'), sort: query.all('sort'), variables: variablesOf(query) });
    const page = pageRequestOf(query);
    const named = await this.namedCandidates(projectKey, plan);
    if (named) return collectPage(named, plan, page, { budget: this.budget });
    const byLastModified = await this.byLastModified.page(projectKey, plan, page);
    if (byLastModified) return byLastModified;
    if (!plan.filtered && page.offset >= TABLE_SKIP_FROM && plan.access(true).streamOrder) {
      return this.deepPageInCreationOrder(projectKey, plan, page);
    }

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

  /**
   * One page of the plan's matches, read from the store range `access` names (starting after
   * `afterId` when given). `passed`, when given, watches the keys-only pass over the offset, if
   * there is one, and is run beside the page's read once the pass is over.
   */
  private async readPage(
    projectKey: string,
    plan: QueryPlan,
    access: StoreAccess & { afterId?: string },
    page: PageRequest,
    passed?: { observe: (entry: PassedEntry) => void; then: () => Promise<void> },
  ): Promise<Page<Resource>> {
    const { after, offset } = await passOffset(plan, access.streamOrder, page, TABLE_ORDER_FIELDS, TABLE_SKIP_FROM, (skip) =>
      this.store.skip(projectKey, access, { ...skip, ...(passed ? { observe: passed.observe } : {}) }),
    );
    const documents = this.store.scan(projectKey, {
      ...access,
      ...(after ? { after } : {}),
      // About one page, when the stream's order lets the page end early; else reads of at most
      // 2,000 resources, so that the budget's clock is looked at between reads of bounded time.
      firstReadSize: access.streamOrder && !page.withTotal ? offset + page.limit + 1 : FULL_READ_SIZE,
    });
    const [answer] = await Promise.all([
      collectPage(documents, { ...plan, streamOrder: access.streamOrder }, { ...page, offset }, { budget: this.budget }),
      passed?.then(),
    ]);
    return { ...answer, offset: page.offset };
  }

  /**
   * A deep page of the project's creation order, unfiltered (rows 1 and 12 paged by offset, the
   * SDK's default way through a project): it starts from the position checkpoint nearest before
   * its offset — as recorded, or repaired after deletes — and passes over what is left, if
   * anything, keys only; a pass notes the checkpoints it crosses for the pages after it
   * (docs/design.md, "Deep offsets"). A total is the counters'.
   */
  private async deepPageInCreationOrder(projectKey: string, plan: QueryPlan, page: PageRequest): Promise<Page<Resource>> {
    const [stats, recorded] = await Promise.all([this.store.stats(projectKey), this.store.checkpoints(projectKey)]);
    const total = stats.total;
    if (!stats.idsInCreationOrder || total === undefined) return this.readPage(projectKey, plan, plan.access(stats.idsInCreationOrder), page);
    const access = plan.access(true);
    const holding = (await this.checkpointsNow(projectKey, recorded, stats.deleted)) ?? [];
    // Repaired checkpoints are recorded again at the current delete count: the pages after this one need no tombstones.
    const repaired = recorded !== undefined && recorded.deleted !== stats.deleted && holding.length > 0;
    const { before, ...start } = startNear(holding, { offset: page.offset, descending: access.descending, total }) ?? { before: 0 };
    const finder = new CheckpointFinder({ before, descending: access.descending, total }, new Date(this.now() - CHECKPOINT_MIN_AGE_MS).toISOString());
    const answer = await this.readPage(projectKey, plan, { ...access, ...start }, { ...page, offset: page.offset - before, withTotal: false }, {
      observe: (entry) => finder.observe(entry),
      // Noting only spares later pages a pass: a throttled table must not fail this page.
      then: () =>
        this.recordCheckpoints(projectKey, { total, deleted: stats.deleted }, access.descending, holding, finder.found, repaired).catch((error: unknown) =>
          logger.warn('could not note position checkpoints', { project: projectKey, error: error as Error }),
        ),
    });
    return { ...answer, offset: page.offset, ...(page.withTotal ? { total } : {}) };
  }

  /**
   * The recorded checkpoints as they stand at the project's delete count: as recorded when no
   * resource was deleted since, repaired from the tombstones of the deletes since when there are
   * few enough (one more read), else none.
   */
  private async checkpointsNow(projectKey: string, recorded: RecordedCheckpoints | undefined, deleted: number): Promise<readonly Checkpoint[] | undefined> {
    if (!recorded || recorded.deleted > deleted) return undefined;
    if (recorded.deleted === deleted) return recorded.checkpoints;
    if (!recorded.deletesSeen || deleted - recorded.deleted > MAX_REPAIRED_DELETES) return undefined;
    const tombstones = await this.store.deletesSince(projectKey, recorded.deletesSeen.since);
    return tombstones && repairCheckpoints(recorded, { deleted, at: new Date(this.now()).toISOString(), tombstones });
  }

  /**
   * Keeps the checkpoints a pass found, if they add any (or the repaired ones, if repaired), when
   * nothing moved positions meanwhile: no delete (positions from the start) and, for a pass
   * counted from the end, no create either — the counters are read again to know, after the
   * tombstones of the last moments: those are then all deletes the positions count, and are
   * recorded with them.
   */
  private async recordCheckpoints(
    projectKey: string,
    counted: { total: number; deleted: number },
    countedFromEnd: boolean,
    holding: readonly Checkpoint[],
    found: readonly Checkpoint[],
    repaired: boolean,
  ): Promise<void> {
    const checkpoints = mergeCheckpoints(holding, found, counted.total) ?? (repaired ? holding : undefined);
    if (!checkpoints) return;
    const since = new Date(this.now() - DELETES_SEEN_WINDOW_MS).toISOString();
    const seen = await this.store.deletesSince(projectKey, since);
    const afterPass = await this.store.stats(projectKey);
    if (afterPass.deleted !== counted.deleted || (countedFromEnd && afterPass.total !== counted.total)) return;
    await this.store.recordCheckpoints(projectKey, { deleted: counted.deleted, checkpoints, ...(seen ? { deletesSeen: { since, ids: seen } } : {}) });
  }

  /** Row 5: whether any resource matches; reading stops at the first match. */
  async exists(projectKey: string, query: QueryParameters): Promise<boolean> {
    const plan = planQuery({ where: query.all('where'), sort: [], variables: variablesOf(query) });
    // Row 5 takes row 1's parameters: a sort is not needed to answer, but a bad one is refused as there.
    checkSort(query.all('sort'));
    const named = await this.namedCandidates(projectKey, plan);
    if (named) return anyMatch(named, plan.matches, this.budget);
    const { bounded, streamOrder: _, ...range } = plan.lastModifiedAccess ?? { bounded: false };
    // Through the index every candidate costs a read unit of its own (its resource is re-read), so
    // the first read is small: a range whose first entries match answers for a few units.
    const byLastModified = bounded ? this.store.scanByLastModified?.(projectKey, { ...range, firstReadSize: EXISTS_FIRST_INDEX_READ }) : undefined;
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

/** What a table range's keys-only read can tell of a resource (ResourceQueryStore.skip). */
const TABLE_ORDER_FIELDS = ['id', 'createdAt'];

/**
 * The offset from which a table page passes over the offset reading keys only. Below it the extra
 * round trip costs more than reading the skipped resources with the page (measured at 10,000
 * resources: docs/design.md). Through the index every skipped entry would cost a resource re-read
 * (1 read unit), so there any offset is passed over.
 */
const TABLE_SKIP_FROM = 200;

/** HEAD's first read of the `lastModifiedAt` index (then doubling): the range's ends, and a couple to match. */
const EXISTS_FIRST_INDEX_READ = RANGE_END_ENTRIES + 2;


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
