/**
 * Recorded orders of the optional `lastModifiedAt` index: the start of a project's order in one
 * direction, as a pass over a deep offset read it, kept so that the next deep pages need not pass
 * over it again (docs/design.md, "Recorded lastModifiedAt orders"). Positions in this order move on
 * every update (an updated resource goes to its end), so no position is recorded: the order itself
 * is, and brought up to date at each use. Whatever changed since the recording has a
 * `lastModifiedAt` from `settledBefore` on — a margin before the recording covers the index's lag
 * and the writers' clocks — so the order now is the recorded one without what changed or was
 * deleted since, with what changed placed where its new `lastModifiedAt` puts it.
 */

/** An entry of the `lastModifiedAt` index: a resource and the `lastModifiedAt` it is indexed at. */
export interface IndexEntry {
  id: string;
  lastModifiedAt: string;
}

export interface RecordedOrder {
  descending: boolean;
  /** When it was recorded (ISO-8601). */
  recordedAt: string;
  /**
   * Only entries modified before this instant are listed. Every write after the recording stamps a
   * `lastModifiedAt` from here on, and every delete a tombstone, so both are read again at each use.
   */
  settledBefore: string;
  /**
   * The order's first entries among those modified before `settledBefore`, all of them up to the
   * last one listed, ordered by `lastModifiedAt` in the direction (then id, ascending). It ends
   * where `lastModifiedAt` changes: no entry left out ties with the last.
   */
  entries: readonly IndexEntry[];
}

/**
 * The margin before a recording inside which entries are read again at every use: far more than
 * the index lags (typically well under a second) or the writers' clocks differ. Deployments may set
 * another (LAST_MODIFIED_INDEX_LAG_MS).
 */
export const INDEX_LAG_MARGIN_MS = 30_000;

/** The most entries a recording keeps (≈65 bytes each, ≈8 read units eventually consistent to read back). */
export const MAX_RECORDED_ENTRIES = 1_000;

/** The most changes since a recording a use takes into account; past them the order is passed over and recorded again. */
export const MAX_CHANGES_SINCE_RECORDING = 200;

/** From this offset a deep page starts from the recorded order (below it, a pass costs less than the extra reads). */
export const RECORDED_ORDER_FROM_OFFSET = 200;

/** A pass that records goes this many entries past its page (≈10 KB of keys, 1–2 read units): the next pages are in the recording too. */
export const RECORD_AHEAD = 100;

/**
 * A recording is not used longer than this after its `settledBefore`: the deletes since then are
 * known from their tombstones, which the table's TTL removes after a day (position-checkpoints.ts).
 */
export const RECORDED_ORDER_LIFETIME_MS = 23 * 3600_000;

/** A recording no longer usable is not replaced before this age: changes come faster than a recording would help. */
export const RECORD_AGAIN_AFTER_MS = 60_000;

/**
 * What to record of a pass from the start of the order: the entries it passed over (index order,
 * all of them), those modified before the margin. Undefined when none is.
 */
export function recordOrder(
  passed: readonly IndexEntry[],
  { descending, now, lagMs = INDEX_LAG_MARGIN_MS }: { descending: boolean; now: number; lagMs?: number },
): RecordedOrder | undefined {
  const settledBefore = new Date(now - lagMs).toISOString();
  // Ascending, the recent entries are the pass's last ones; descending, its first: either way the
  // others are consecutive in the order, and still end where the pass did, at a change.
  const settled = passed.filter((entry) => entry.lastModifiedAt < settledBefore).sort(orderOf(descending));
  const entries = endAtChange(settled, MAX_RECORDED_ENTRIES);
  if (entries.length === 0) return undefined;
  return { descending, recordedAt: new Date(now).toISOString(), settledBefore, entries };
}

/**
 * Whether a recording can still be brought up to date: the tombstones of every delete since its
 * `settledBefore` are all there (counted from there, not from `recordedAt`: the margin is a setting).
 */
export const isUsable = (recorded: RecordedOrder, now: number) => now - Date.parse(recorded.settledBefore) <= RECORDED_ORDER_LIFETIME_MS;

/** Whether a recording that is not usable now may be replaced. */
export const mayRecordAgain = (recorded: RecordedOrder | undefined, now: number) =>
  !recorded || now - Date.parse(recorded.recordedAt) >= RECORD_AGAIN_AFTER_MS;

/** The order now: its first entries in full (`head`), and the range of the index that follows them (`rest`). */
export interface CurrentOrder {
  head: IndexEntry[];
  /** Inclusive bounds of the index entries after the head, in the same direction: none of them ties with the head. */
  rest: { from?: string; to?: string };
}

/**
 * The recorded order brought up to date with the index entries modified since `settledBefore`
 * (`changes`, any order) and the resources deleted since (`deleted`). Ascending, what changed
 * comes after everything recorded, so it is in the rest; descending, it comes first.
 */
export function currentOrder(recorded: RecordedOrder, changes: readonly IndexEntry[], deleted: ReadonlySet<string>): CurrentOrder {
  const changed = new Set(changes.map((entry) => entry.id));
  const kept = recorded.entries.filter((entry) => !changed.has(entry.id) && !deleted.has(entry.id));
  const rest = restAfter(recorded.entries, recorded.descending);
  if (!recorded.descending) return { head: kept, rest };
  const recent = changes.filter((entry) => !deleted.has(entry.id) && entry.lastModifiedAt >= recorded.settledBefore).sort(orderOf(true));
  return { head: [...recent, ...kept], rest };
}

/** The order as a pass from its start just read it (`passed`: all it passed over, ending where `lastModifiedAt` changes). */
export function orderOfPass(passed: readonly IndexEntry[], descending: boolean): CurrentOrder {
  return { head: [...passed].sort(orderOf(descending)), rest: restAfter(passed, descending) };
}

/** The index range after the last of `entries` (the whole index when there are none). */
function restAfter(entries: readonly IndexEntry[], descending: boolean): CurrentOrder['rest'] {
  const last = entries.at(-1);
  if (!last) return {};
  const at = Date.parse(last.lastModifiedAt);
  return descending ? { to: new Date(at - 1).toISOString() } : { from: new Date(at + 1).toISOString() };
}

/** Where the group of entries that tie with the one at `position` (in `order`, the stream's order) starts. */
export function tieGroupStart<T>(entries: readonly T[], position: number, order: (a: T, b: T) => number): number {
  let start = Math.min(position, entries.length);
  while (start > 0 && start < entries.length && order(entries[start - 1]!, entries[start]!) === 0) start--;
  return start;
}

/** `lastModifiedAt` in the direction, then id ascending: the order of a sort on `lastModifiedAt` alone (ties by id). */
const orderOf =
  (descending: boolean) =>
  (a: IndexEntry, b: IndexEntry): number => {
    if (a.lastModifiedAt !== b.lastModifiedAt) return (a.lastModifiedAt < b.lastModifiedAt ? -1 : 1) * (descending ? -1 : 1);
    return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
  };

/** The first `max` entries, less the trailing ones that tie with the entry after them (when there is one). */
function endAtChange(entries: readonly IndexEntry[], max: number): IndexEntry[] {
  if (entries.length <= max) return [...entries];
  const next = entries[max]!.lastModifiedAt;
  let end = max;
  while (end > 0 && entries[end - 1]!.lastModifiedAt === next) end--;
  return entries.slice(0, end);
}
