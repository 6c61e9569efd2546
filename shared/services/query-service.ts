import {
  anyMatch,
  checkSort,
  collectPage,
  planQuery,
  QueryBudget,
  type Page,
  type PageRequest,
  type QueryPlan,
  type DocumentComparator,
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
import {
  currentOrder,
  INDEX_LAG_MARGIN_MS,
  isUsable,
  MAX_CHANGES_SINCE_RECORDING,
  mayRecordAgain,
  orderOfPass,
  RECORD_AHEAD,
  RECORDED_ORDER_FROM_OFFSET,
  recordOrder,
  tieGroupStart,
  type CurrentOrder,
  type IndexEntry,
  type RecordedOrder,
} from '../domain/query/last-modified-order';
import type { Resource } from '../domain/resource';
import { logger } from '../observability/logger';
import type { QueryParameters } from '../domain/query-parameters';
import type { PassedEntry } from '../domain/query/position-checkpoints';
import type { LastModifiedRange, ResourceQueryStore, Skip, Skipped, StreamPosition } from '../store/resource-store';

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
    private readonly store: ResourceQueryStore,
    private readonly budget: QueryBudget = QueryBudget.fromEnvironment(),
    private readonly now: () => number = Date.now,
    /** How far the `lastModifiedAt` index may lag (last-modified-order.ts). */
    private readonly indexLagMs: number = INDEX_LAG_MARGIN_MS,
  ) {}

  /** The recorded `lastModifiedAt` orders this function used last (any recording holds: it is brought up to date at each use). */
  private readonly recordings = new RecentRecordings();

  /** Rows 1 and 12. */
  async query(projectKey: string, query: QueryParameters): Promise<Page<Resource>> {
    const plan = planQuery({ where: query.all('where'), sort: query.all('sort'), variables: variablesOf(query) });
    const page = pageRequestOf(query);
    const named = await this.namedCandidates(projectKey, plan);
    if (named) return collectPage(named, plan, page, { budget: this.budget });
    const byLastModified = await this.lastModifiedPage(projectKey, plan, page);
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
    const { after, offset } = await this.passOffset(plan, access.streamOrder, page, TABLE_ORDER_FIELDS, TABLE_SKIP_FROM, (skip) =>
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

  /**
   * A page read from the deployment's `lastModifiedAt` index, when it has one and the plan names a
   * range or order of it: about one page of reads for a sort on it. A total over the whole project
   * is read the usual way (the index would only add reads).
   */
  private async lastModifiedPage(projectKey: string, plan: QueryPlan, page: PageRequest): Promise<Page<Resource> | undefined> {
    const access = plan.lastModifiedAccess;
    if (!access || (page.withTotal && !access.bounded) || !this.store.scanByLastModified) return undefined;
    const { bounded, streamOrder, ...range } = access;
    // A range alone, its page in id order (no sort given): the range's ids from the index keys,
    // then their resources in id order until the page is complete, not every resource of the range.
    const idOrder = plan.access(false).streamOrder;
    const ids = !streamOrder && idOrder && !page.withTotal ? this.store.idsByLastModified?.(projectKey, range) : undefined;
    if (ids) {
      const resources = this.inIdOrder(projectKey, ids, page.offset + page.limit + 1 + RANGE_END_ENTRIES);
      return collectPage(resources, { ...plan, streamOrder: idOrder }, page, { budget: this.budget });
    }
    if (streamOrder && !bounded && !plan.filtered && !page.withTotal && page.offset >= RECORDED_ORDER_FROM_OFFSET) {
      return this.deepPageByLastModified(projectKey, plan, page, { descending: range.descending, streamOrder });
    }
    return this.indexRangePage(projectKey, plan, page, { range, streamOrder, bounded });
  }

  /**
   * A page of a range of the index (its order, when the first sort is on `lastModifiedAt`): the
   * offset passed over on index entries when the plan lets the pass decide, then the page read from
   * there.
   */
  private async indexRangePage(
    projectKey: string,
    plan: QueryPlan,
    page: PageRequest,
    { range, streamOrder, bounded }: { range: LastModifiedRange; streamOrder: DocumentComparator | undefined; bounded: boolean },
  ): Promise<Page<Resource> | undefined> {
    const { after, offset } = await this.passOffset(plan, streamOrder, page, INDEX_ORDER_FIELDS, 1, (skip) => this.store.skipByLastModified?.(projectKey, range, skip));
    const documents = this.store.scanByLastModified?.(projectKey, {
      ...range,
      ...(after ? { after } : {}),
      // A page inside a range is still complete after one read.
      firstReadSize: streamOrder && !page.withTotal ? offset + page.limit + 1 + (bounded ? RANGE_END_ENTRIES : 0) : FULL_READ_SIZE,
    });
    if (!documents) return undefined;
    const answer = await collectPage(documents, { ...plan, streamOrder }, { ...page, offset }, { budget: this.budget });
    return { ...answer, offset: page.offset };
  }

  /**
   * A deep page of the project's `lastModifiedAt` order, unfiltered (paging by offset through
   * what changed last): from the order a pass recorded, brought up to date by what changed and
   * was deleted since (two small reads: last-modified-order.ts), reading only the page; else from
   * a pass over the offset and a few pages beyond it, which is recorded for the pages after it
   * (docs/design.md, "Recorded lastModifiedAt orders").
   */
  private async deepPageByLastModified(
    projectKey: string,
    plan: QueryPlan,
    page: PageRequest,
    { descending, streamOrder }: { descending: boolean; streamOrder: DocumentComparator },
  ): Promise<Page<Resource> | undefined> {
    const now = this.now();
    const recorded = await this.recordedOrderNow(projectKey, descending, now);
    const passed = recorded.order ? undefined : await this.passAndRecord(projectKey, { descending, streamOrder, count: page.offset + page.limit + RECORD_AHEAD }, { now, replacing: recorded.latest });
    const order = recorded.order ?? passed?.order;
    if (!order) return undefined;
    const { head, rest } = order;
    if (page.offset >= head.length) {
      const [answer] = await Promise.all([
        this.indexRangePage(projectKey, plan, { ...page, offset: page.offset - head.length }, { range: { ...rest, descending }, streamOrder, bounded: false }),
        passed?.recording,
      ]);
      return answer && { ...answer, offset: page.offset };
    }
    // The page starts with the group of entries that tie with the one at its offset: the sort orders the group.
    const start = tieGroupStart(head, page.offset, streamOrder);
    const documents = concat(
      this.resourcesOf(projectKey, head.slice(start), page.offset - start + page.limit + 1, (resource, entry) => resource.lastModifiedAt === entry.lastModifiedAt),
      this.store.scanByLastModified?.(projectKey, { ...rest, descending, firstReadSize: page.limit + 1 }) ?? [],
    );
    const [answer] = await Promise.all([
      collectPage(documents, { ...plan, streamOrder }, { ...page, offset: page.offset - start }, { budget: this.budget }),
      passed?.recording,
    ]);
    return { ...answer, offset: page.offset };
  }

  /**
   * Passes over the first `count` entries of the order (keys only), and records them — unless a
   * recording that no longer serves was made too recently to be replaced yet. The order is the one
   * the pass read; the recording's write (`recording`) goes on beside the page's read.
   */
  private async passAndRecord(
    projectKey: string,
    { descending, streamOrder, count }: { descending: boolean; streamOrder: DocumentComparator; count: number },
    { now, replacing }: { now: number; replacing: RecordedOrder | undefined },
  ): Promise<{ order: CurrentOrder; recording: Promise<void> } | undefined> {
    const entries: IndexEntry[] = [];
    const skipped = await this.store.skipByLastModified?.(projectKey, { descending }, { count, matches: () => true, order: streamOrder, observe: (entry) => entries.push(entry) });
    if (!skipped) return undefined;
    // Every entry matches (no `where`): the first `passed` entries observed are those passed over.
    const passed = entries.slice(0, skipped.passed);
    const recording = mayRecordAgain(replacing, now) ? recordOrder(passed, { descending, now, lagMs: this.indexLagMs }) : undefined;
    const write = async () => {
      if (!recording) return;
      // A recording only spares later pages a pass: not storing it (a throttled table) must not
      // fail this page, and this function can still start from it.
      await this.store.recordLastModifiedOrder?.(projectKey, recording).catch((error: unknown) =>
        logger.warn('could not store a recorded lastModifiedAt order', { project: projectKey, error: error as Error }),
      );
      this.recordings.remember(projectKey, recording, now);
    };
    return { order: orderOfPass(passed, descending), recording: write() };
  }

  /**
   * The recorded order of the direction as it stands now, from the recording this function used
   * in the last minute (kept in memory: one read less) or else the stored one; no order when it is
   * not usable or too much changed since. `latest` is the recording looked at, if any.
   */
  private async recordedOrderNow(projectKey: string, descending: boolean, now: number): Promise<{ order?: CurrentOrder; latest?: RecordedOrder }> {
    const remembered = this.recordings.get(projectKey, descending, now);
    if (remembered) {
      const order = isUsable(remembered, now) ? await this.orderNow(projectKey, remembered) : undefined;
      // One seen in the last minute that no longer serves: the project changes too fast for a
      // recording another function made meanwhile to serve either, so the table is not read.
      return order ? { order, latest: remembered } : { latest: remembered };
    }
    const stored = await this.store.lastModifiedOrder?.(projectKey, descending);
    if (!stored) return {};
    const order = isUsable(stored, now) ? await this.orderNow(projectKey, stored) : undefined;
    if (order) this.recordings.remember(projectKey, stored, now);
    return { ...(order ? { order } : {}), latest: stored };
  }

  /** A recorded order as it stands now, or undefined when too much changed since (more than a use reads). */
  private async orderNow(projectKey: string, recorded: RecordedOrder): Promise<CurrentOrder | undefined> {
    const [changes, deleted] = await Promise.all([
      this.store.lastModifiedEntries?.(projectKey, { from: recorded.settledBefore, descending: recorded.descending }, MAX_CHANGES_SINCE_RECORDING),
      this.store.deletesSince(projectKey, recorded.settledBefore),
    ]);
    return changes && deleted ? currentOrder(recorded, changes, new Set(deleted)) : undefined;
  }

  /**
   * The resources of ids read from index keys, in id order: every id first (a few bytes of index
   * each; counted against the budget like resources), then their resources, a page and one more at
   * first, twice as many each time after. An id may be out of date: its resource is whatever it
   * is now, and the predicate decides again.
   */
  private async *inIdOrder(projectKey: string, ids: AsyncIterable<string>, firstReadSize: number): AsyncIterable<Resource> {
    const spend = this.budget.start();
    const distinct = new Set<string>();
    for await (const id of ids) {
      spend();
      distinct.add(id);
    }
    const ordered = [...distinct].sort(); // code-unit order, as the id comparator's `<`
    yield* this.resourcesOf(projectKey, ordered.map((id) => ({ id })), firstReadSize);
  }

  /**
   * The resources of `entries`, in their order, read a page and one more at first, twice as many
   * each time after; those gone, or that `current` says are not the entry's any more, are left out.
   */
  private async *resourcesOf<Entry extends { id: string }>(
    projectKey: string,
    entries: readonly Entry[],
    firstReadSize: number,
    current: (resource: Resource, entry: Entry) => boolean = () => true,
  ): AsyncIterable<Resource> {
    for (let start = 0, size = firstReadSize; start < entries.length; start += size, size = Math.min(size * 2, FULL_READ_SIZE)) {
      const chunk = entries.slice(start, start + size);
      const read = new Map((await this.store.getMany(projectKey, chunk.map((entry) => entry.id))).map((resource) => [resource.id, resource]));
      for (const entry of chunk) {
        const resource = read.get(entry.id);
        if (resource && current(resource, entry)) yield resource;
      }
    }
  }

  /**
   * Where the page starts, and what is left of the offset there. A page that ends early (read in
   * the stream's order, without a total) of a query whose predicate reads only the stream's own
   * order fields (none, or ranges of them) passes over a deep offset reading keys only
   * (`skip`): the predicate decides on those fields what the evaluator would decide on the whole
   * resource. Otherwise the whole offset is read and evaluated, from the range's start.
   */
  private async passOffset(
    plan: QueryPlan,
    streamOrder: DocumentComparator | undefined,
    page: PageRequest,
    orderFields: readonly string[],
    skipFrom: number,
    skip: (skip: Skip) => Promise<Skipped> | undefined,
  ): Promise<{ after?: StreamPosition; offset: number }> {
    if (!streamOrder || page.withTotal || page.offset < skipFrom || !plan.readsOnly(orderFields)) return { offset: page.offset };
    const skipped = await skip({ count: page.offset, matches: plan.matches, order: streamOrder });
    if (!skipped) return { offset: page.offset };
    return { ...(skipped.after ? { after: skipped.after } : {}), offset: page.offset - skipped.passed };
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

/** What a table range's keys-only read can tell of a resource (ResourceQueryStore.skip), and of an index entry. */
const TABLE_ORDER_FIELDS = ['id', 'createdAt'];
const INDEX_ORDER_FIELDS = ['id', 'lastModifiedAt'];

/**
 * The offset from which a table page passes over the offset reading keys only. Below it the extra
 * round trip costs more than reading the skipped resources with the page (measured at 10,000
 * resources: docs/design.md). Through the index every skipped entry would cost a resource re-read
 * (1 read unit), so there any offset is passed over.
 */
const TABLE_SKIP_FROM = 200;

/**
 * A `lastModifiedAt` range is read with inclusive bounds (whole milliseconds): an entry at each end
 * may be one that `>`/`<` exclude. First reads of a range take these two more.
 */
const RANGE_END_ENTRIES = 2;

/** HEAD's first read of the `lastModifiedAt` index (then doubling): the range's ends, and a couple to match. */
const EXISTS_FIRST_INDEX_READ = RANGE_END_ENTRIES + 2;

/** The first read of a scan that may read everything (it doubles up to the store's maximum). */
export const FULL_READ_SIZE = 1_000;

/**
 * The last recorded orders used, a few projects' worth (≈100 KB each at most): a warm function
 * starts a deep page without reading the recording again — for a minute after it last read or
 * wrote it, so that a recording deleted or replaced in the table (docs/design.md) is not used for
 * longer than that.
 */
class RecentRecordings {
  private static readonly KEPT = 16;
  private static readonly TRUSTED_FOR_MS = 60_000;
  private readonly byProject = new Map<string, { recorded: RecordedOrder; seenAt: number }>();

  get(projectKey: string, descending: boolean, now: number): RecordedOrder | undefined {
    const kept = this.byProject.get(RecentRecordings.keyOf(projectKey, descending));
    return kept && now - kept.seenAt < RecentRecordings.TRUSTED_FOR_MS ? kept.recorded : undefined;
  }

  remember(projectKey: string, recorded: RecordedOrder, now: number): void {
    const key = RecentRecordings.keyOf(projectKey, recorded.descending);
    this.byProject.delete(key); // re-inserted last: the map's order is the order of use
    this.byProject.set(key, { recorded, seenAt: now });
    if (this.byProject.size > RecentRecordings.KEPT) this.byProject.delete(this.byProject.keys().next().value!);
  }

  private static keyOf(projectKey: string, descending: boolean): string {
    return `${descending ? 'desc' : 'asc'} ${projectKey}`;
  }
}

/** One stream after the other (the second is read only if the first does not end the reading). */
async function* concat<T>(...streams: (AsyncIterable<T> | Iterable<T>)[]): AsyncIterable<T> {
  for (const stream of streams) yield* stream;
}

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
