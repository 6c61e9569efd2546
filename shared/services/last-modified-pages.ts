import { collectPage, type DocumentComparator, type Page, type PageRequest, type QueryBudget, type QueryPlan } from '../domain/query';
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
import type { LastModifiedRange, ResourceQueryStore } from '../store/resource-store';
import { concat, FULL_READ_SIZE, passOffset } from './query-reads';

/** What an index entry's keys tell of a resource (ResourceQueryStore.skipByLastModified). */
const INDEX_ORDER_FIELDS = ['id', 'lastModifiedAt'];

/**
 * A `lastModifiedAt` range is read with inclusive bounds (whole milliseconds): an entry at each end
 * may be one that `>`/`<` exclude. First reads of a range take these two more.
 */
export const RANGE_END_ENTRIES = 2;

/**
 * Query pages read from the deployment's optional `lastModifiedAt` index (docs/design.md, "The
 * optional lastModifiedAt index"): a sort on it and its ranges read about a page, a range alone
 * in id order reads the range's ids and then about a page of resources, and a deep page of the
 * unfiltered order starts from the order recorded for it ("Recorded lastModifiedAt orders").
 * Undefined answers mean: the deployment has no index, read the project the usual way.
 */
export class LastModifiedPages {
  constructor(
    private readonly store: ResourceQueryStore,
    private readonly budget: QueryBudget,
    private readonly now: () => number,
    /** How far the `lastModifiedAt` index may lag (last-modified-order.ts). */
    private readonly indexLagMs: number = INDEX_LAG_MARGIN_MS,
  ) {}

  /** The recorded orders this function used last (any recording holds: it is brought up to date at each use). */
  private readonly recordings = new RecentRecordings();

  /**
   * A page read from the deployment's `lastModifiedAt` index, when it has one and the plan names a
   * range or order of it: about one page of reads for a sort on it. A total over the whole project
   * is read the usual way (the index would only add reads).
   */
  async page(projectKey: string, plan: QueryPlan, page: PageRequest): Promise<Page<Resource> | undefined> {
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
    const { after, offset } = await passOffset(plan, streamOrder, page, INDEX_ORDER_FIELDS, 1, (skip) => this.store.skipByLastModified?.(projectKey, range, skip));
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
}

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
