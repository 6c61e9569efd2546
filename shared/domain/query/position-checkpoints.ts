import { MAX_OFFSET } from '../limits';

/**
 * Position checkpoints: where the n-th resource of a project's creation order is, so that a deep
 * page starts near its offset instead of passing over every resource before it (docs/design.md,
 * "Deep offsets"). Ids are creation-ordered (resource-id.ts), so creation order is id order and a
 * create only ever appends: a position counted from the start moves only when a resource before it
 * is deleted. Checkpoints are therefore recorded with the project's delete count; after deletes
 * they are repaired from the deletes' tombstones (each delete leaves one with its id), or set aside.
 */
export interface Checkpoint {
  /** How many of the project's resources have an id ≤ `id`: its 1-based position in id order. */
  position: number;
  /**
   * The last resource of its millisecond, so that the resources up to it are exactly those
   * created up to that millisecond: a page may start there in either direction without splitting
   * resources that tie in `createdAt`.
   */
  id: string;
}

export interface RecordedCheckpoints {
  /** The project's delete count when they were recorded (ProjectStats.deleted). */
  deleted: number;
  /** Ascending by position. */
  checkpoints: readonly Checkpoint[];
  /**
   * The tombstones from `since` on that were there when they were recorded: deletes their positions
   * already count. Every delete after the recording leaves a tombstone at or after `since`, so the
   * tombstones from `since` on, less these, are exactly the deletes the positions do not count yet.
   */
  deletesSeen?: { since: string; ids: readonly string[] };
}

/**
 * How far before its recording a checkpoint set reads the tombstones it has seen: more than a
 * delete's clock may lag, or its transaction take, between stamping its tombstone and committing.
 */
export const DELETES_SEEN_WINDOW_MS = 120_000;

/** More deletes than this since a recording are not repaired: the deep page passes again and records afresh. */
export const MAX_REPAIRED_DELETES = 500;

/** How long a tombstone lives (the table's TTL removes it after); checkpoints older than this less a margin are not repaired. */
export const TOMBSTONE_LIFETIME_MS = 24 * 3600_000;
const REPAIRABLE_FOR_MS = TOMBSTONE_LIFETIME_MS - 3600_000;

/**
 * Checkpoints as they stand after the deletes since their recording: each loses one position per
 * deleted resource at or before it in id order. `tombstones` are the ids of every delete from
 * `recorded.deletesSeen.since` on; `deleted` the project's delete count now. Undefined when that
 * cannot be known exactly — no tombstones seen at the recording, a recording too old for its
 * tombstones to be all there, or a number of new tombstones that is not the deletes counted since.
 */
export function repairCheckpoints(
  recorded: RecordedCheckpoints,
  now: { deleted: number; at: string; tombstones: readonly string[] },
): Checkpoint[] | undefined {
  const seen = recorded.deletesSeen;
  if (!seen || Date.parse(now.at) - Date.parse(seen.since) > REPAIRABLE_FOR_MS) return undefined;
  const counted = new Set(seen.ids);
  const since = now.tombstones.filter((id) => !counted.has(id)).sort();
  if (since.length !== now.deleted - recorded.deleted) return undefined;
  // Both in id order: one walk counts the deletes at or before each checkpoint.
  let before = 0;
  return recorded.checkpoints.map(({ position, id }) => {
    while (before < since.length && since[before]! <= id) before++;
    return { position: position - before, id };
  });
}

/** A checkpoint every hundred positions or so: a page starting from one passes over fewer than that. */
export const CHECKPOINT_SPACING = 100;

/**
 * Resources younger than this are not checkpointed: a create whose function's clock lags by less
 * than this still appends after every checkpoint (Lambda clocks are synchronised far closer).
 */
export const CHECKPOINT_MIN_AGE_MS = 60_000;

/**
 * Where a stream of the creation order starts — right after a checkpoint going up, at it going
 * down: a millisecond's resources are never split — and how many resources precede it in the
 * stream's direction.
 */
export interface StreamStart {
  afterId?: string;
  toId?: string;
  /** Resources before the start, in the stream's direction (from the first in ascending order, from the last in descending). */
  before: number;
}

/**
 * The start nearest to `offset` (counted in the stream's direction) that the checkpoints give,
 * or undefined when none is at or before it. `total` is the project's exact current count.
 */
export function startNear(recorded: readonly Checkpoint[], request: { offset: number; descending: boolean; total: number }): StreamStart | undefined {
  let best: StreamStart | undefined;
  for (const { position, id } of recorded) {
    if (position > request.total) continue;
    const before = request.descending ? request.total - position : position;
    if (before > request.offset || (best && best.before >= before)) continue;
    best = request.descending ? { toId: id, before } : { afterId: id, before };
  }
  return best;
}

/** What a pass sees of each resource: the fields of its key. */
export interface PassedEntry {
  id: string;
  createdAt: string;
}

/**
 * Finds checkpoints in a pass over the creation order: told every entry of the stream in order
 * (from `stream.before`, all of them — an unfiltered stream), it notes the first change of
 * millisecond at or past every multiple of CHECKPOINT_SPACING counted in the stream's direction.
 * Offsets are mostly multiples of a page size, so a page at one usually starts right at its
 * checkpoint. Only entries older than `notAfter` are noted.
 */
export class CheckpointFinder {
  readonly found: Checkpoint[] = [];
  private passed: number;
  private nextMark: number;
  private previous: PassedEntry | undefined;

  constructor(
    private readonly stream: { before: number; descending: boolean; total: number },
    private readonly notAfter: string,
  ) {
    this.passed = stream.before;
    this.nextMark = markAfter(stream.before);
  }

  observe(entry: PassedEntry): void {
    const previous = this.previous;
    // `passed` entries precede `entry` in the stream: the change between `previous` and `entry` is at that offset.
    if (previous && this.passed >= this.nextMark && previous.createdAt !== entry.createdAt) {
      // The older side of the change is the checkpoint: the last resource of its millisecond.
      const older = this.stream.descending ? entry : previous;
      if (older.createdAt < this.notAfter) {
        this.found.push({ id: older.id, position: this.stream.descending ? this.stream.total - this.passed : this.passed });
        this.nextMark = markAfter(this.passed);
      }
    }
    this.previous = entry;
    this.passed++;
  }
}

/** The first multiple of CHECKPOINT_SPACING after `offset`. */
const markAfter = (offset: number) => (Math.floor(offset / CHECKPOINT_SPACING) + 1) * CHECKPOINT_SPACING;

/**
 * The checkpoints worth keeping: those within reach of a page (an offset ≤ MAX_OFFSET from either
 * end of a project of `total`), at least half a spacing apart, the recorded ones first. Undefined
 * when `found` adds nothing to `kept`.
 */
export function mergeCheckpoints(kept: readonly Checkpoint[], found: readonly Checkpoint[], total: number): Checkpoint[] | undefined {
  const reachable = (checkpoint: Checkpoint) =>
    checkpoint.position <= MAX_OFFSET + CHECKPOINT_SPACING || checkpoint.position >= total - MAX_OFFSET - CHECKPOINT_SPACING;
  const merged = [...kept.filter(reachable)];
  let added = false;
  for (const candidate of found.filter(reachable)) {
    if (merged.some((checkpoint) => Math.abs(checkpoint.position - candidate.position) < CHECKPOINT_SPACING / 2)) continue;
    merged.push(candidate);
    added = true;
  }
  return added ? merged.sort((a, b) => a.position - b.position) : undefined;
}
