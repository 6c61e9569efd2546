import { describe, expect, it } from 'vitest';
import { MAX_OFFSET } from '../../../shared/domain/limits';
import {
  CHECKPOINT_SPACING,
  CheckpointFinder,
  mergeCheckpoints,
  repairCheckpoints,
  startNear,
  TOMBSTONE_LIFETIME_MS,
  type Checkpoint,
  type RecordedCheckpoints,
} from '../../../shared/domain/query/position-checkpoints';

/** A project of resources created at these milliseconds, in id (= creation) order. */
const project = (milliseconds: number[]) =>
  milliseconds.map((millisecond, index) => ({ id: `id-${String(index).padStart(5, '0')}`, createdAt: new Date(Date.UTC(2025, 0, 1) + millisecond).toISOString() }));
const NOT_AFTER = '2026-01-01T00:00:00.000Z';

describe('startNear', () => {
  const checkpoints: Checkpoint[] = [
    { position: 100, id: 'a' },
    { position: 200, id: 'b' },
    { position: 300, id: 'c' },
  ];

  it('ascending: right after the last checkpoint at or before the offset, the checkpoint itself counted as before', () => {
    expect(startNear(checkpoints, { offset: 250, descending: false, total: 400 })).toEqual({ afterId: 'b', before: 200 });
    expect(startNear(checkpoints, { offset: 200, descending: false, total: 400 })).toEqual({ afterId: 'b', before: 200 });
    expect(startNear(checkpoints, { offset: 99, descending: false, total: 400 })).toBeUndefined();
  });

  it('descending: at the checkpoint, what is after it counted from the end', () => {
    // total 400: 100 resources after position 300, 200 after position 200.
    expect(startNear(checkpoints, { offset: 150, descending: true, total: 400 })).toEqual({ toId: 'c', before: 100 });
    expect(startNear(checkpoints, { offset: 250, descending: true, total: 400 })).toEqual({ toId: 'b', before: 200 });
    expect(startNear(checkpoints, { offset: 50, descending: true, total: 400 })).toBeUndefined();
  });

  it('ignores checkpoints past the current total', () => {
    expect(startNear(checkpoints, { offset: 0, descending: true, total: 250 })).toBeUndefined();
    expect(startNear(checkpoints, { offset: 60, descending: true, total: 250 })).toEqual({ toId: 'b', before: 50 });
  });
});

describe('CheckpointFinder', () => {
  const observeAll = (finder: CheckpointFinder, entries: { id: string; createdAt: string }[]) => entries.forEach((entry) => finder.observe(entry));

  it('ascending: the last resource of a millisecond at or past every multiple of the spacing, at its 1-based position', () => {
    // One resource a millisecond: the checkpoints are the multiples themselves.
    const single = project(Array.from({ length: 450 }, (_, index) => index));
    const exact = new CheckpointFinder({ before: 0, descending: false, total: 450 }, NOT_AFTER);
    observeAll(exact, single);
    expect(exact.found).toEqual([100, 200, 300, 400].map((position) => ({ position, id: single[position - 1]!.id })));
    // Three to a millisecond: the next change of millisecond.
    const entries = project(Array.from({ length: 400 }, (_, index) => Math.floor(index / 3)));
    const finder = new CheckpointFinder({ before: 0, descending: false, total: 400 }, NOT_AFTER);
    observeAll(finder, entries);
    expect(finder.found.map(({ position }) => position)).toEqual([102, 201, 300]);
    for (const { position, id } of finder.found) {
      expect(entries[position - 1]!.id).toBe(id);
      expect(entries[position]!.createdAt).not.toBe(entries[position - 1]!.createdAt);
    }
  });

  it('descending from a start: positions counted from the end of a project of `total`', () => {
    const entries = project(Array.from({ length: 1000 }, (_, index) => Math.floor(index / 2)));
    // A pass down from the 1,000th, 300 already above it: it sees entries 699 down to 0.
    const finder = new CheckpointFinder({ before: 300, descending: true, total: 1000 }, NOT_AFTER);
    observeAll(finder, entries.slice(0, 700).reverse());
    // 400, 500, … resources from the end, two to a millisecond: the multiples themselves.
    expect(finder.found.map(({ position }) => 1000 - position)).toEqual([400, 500, 600, 700, 800, 900]);
    for (const { position, id } of finder.found) {
      expect(entries[position - 1]!.id).toBe(id);
      expect(entries[position]!.createdAt).not.toBe(entries[position - 1]!.createdAt);
    }
  });

  it('never splits a millisecond: a long one is passed whole before the next checkpoint', () => {
    const entries = project([...Array.from({ length: 50 }, (_, index) => index), ...Array.from({ length: 300 }, () => 50), 51, 52, 53]);
    const finder = new CheckpointFinder({ before: 0, descending: false, total: entries.length }, NOT_AFTER);
    observeAll(finder, entries);
    expect(finder.found.map(({ position }) => position)).toEqual([350]);
  });

  it('notes nothing younger than its bound (a create with a lagging clock may still land before it)', () => {
    const entries = project(Array.from({ length: 300 }, (_, index) => index));
    const finder = new CheckpointFinder({ before: 0, descending: false, total: 300 }, entries[150]!.createdAt);
    observeAll(finder, entries);
    expect(finder.found.map(({ position }) => position)).toEqual([100]);
  });
});

describe('mergeCheckpoints', () => {
  it('adds what is at least half a spacing from what is kept; undefined when nothing is added', () => {
    const kept = [{ position: 100, id: 'a' }];
    expect(mergeCheckpoints(kept, [{ position: 120, id: 'x' }], 1000)).toBeUndefined();
    expect(mergeCheckpoints(kept, [{ position: 160, id: 'b' }, { position: 40, id: 'c' }], 1000)).toEqual([
      { position: 40, id: 'c' },
      { position: 100, id: 'a' },
      { position: 160, id: 'b' },
    ]);
  });

  it('keeps only what a page can reach: an offset of at most MAX_OFFSET from either end', () => {
    const total = 3 * MAX_OFFSET;
    const merged = mergeCheckpoints(
      [{ position: MAX_OFFSET + 5 * CHECKPOINT_SPACING, id: 'middle' }],
      [
        { position: 500, id: 'near-start' },
        { position: total - 500, id: 'near-end' },
        { position: 2 * MAX_OFFSET - 5 * CHECKPOINT_SPACING, id: 'middle-too' },
      ],
      total,
    );
    expect(merged?.map(({ id }) => id)).toEqual(['near-start', 'near-end']);
  });
});

describe('repairCheckpoints', () => {
  // A project of 1,000 resources id-000 … id-999 (position n is id of index n − 1), checkpoints every 100.
  const id = (index: number) => `id-${String(index).padStart(3, '0')}`;
  const since = '2026-11-23T10:00:00.000Z';
  const at = '2026-11-23T11:00:00.000Z';
  const recorded: RecordedCheckpoints = {
    deleted: 4,
    checkpoints: [100, 200, 300].map((position) => ({ position, id: id(position - 1) })),
    deletesSeen: { since, ids: [id(5), id(150)] }, // deleted before the recording: counted already
  };

  it('each checkpoint loses one position per resource deleted since at or before it in id order, itself included', () => {
    // Deleted since: one before the first checkpoint, the second checkpoint itself, one after the last.
    const tombstones = [id(5), id(150), id(42), id(199), id(700)];
    expect(repairCheckpoints(recorded, { deleted: 7, at, tombstones })).toEqual([
      { position: 99, id: id(99) },
      { position: 198, id: id(199) },
      { position: 298, id: id(299) },
    ]);
  });

  it('nothing to repair from when the new tombstones are not the deletes counted since, or none were seen', () => {
    expect(repairCheckpoints(recorded, { deleted: 8, at, tombstones: [id(5), id(150), id(42), id(199), id(700)] })).toBeUndefined();
    expect(repairCheckpoints(recorded, { deleted: 5, at, tombstones: [id(5), id(42), id(199)] })).toBeUndefined();
    const { deletesSeen: _, ...unseen } = recorded;
    expect(repairCheckpoints(unseen, { deleted: 5, at, tombstones: [id(42)] })).toBeUndefined();
  });

  it('nothing from a recording older than its tombstones live (the TTL may have taken some)', () => {
    const late = new Date(Date.parse(since) + TOMBSTONE_LIFETIME_MS).toISOString();
    expect(repairCheckpoints(recorded, { deleted: 5, at: late, tombstones: [id(5), id(150), id(42)] })).toBeUndefined();
    expect(repairCheckpoints(recorded, { deleted: 5, at, tombstones: [id(5), id(150), id(42)] })?.[0]).toEqual({ position: 99, id: id(99) });
  });
});
