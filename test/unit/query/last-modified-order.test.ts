import { describe, expect, it } from 'vitest';
import {
  currentOrder,
  INDEX_LAG_MARGIN_MS,
  isUsable,
  MAX_RECORDED_ENTRIES,
  mayRecordAgain,
  RECORD_AGAIN_AFTER_MS,
  RECORDED_ORDER_LIFETIME_MS,
  recordOrder,
  tieGroupStart,
  type IndexEntry,
} from '../../../shared/domain/query/last-modified-order';
import { TOMBSTONE_LIFETIME_MS } from '../../../shared/domain/query/position-checkpoints';

const NOW = Date.UTC(2026, 10, 25, 12);
const at = (millisecond: number) => new Date(millisecond).toISOString();

/** The index of a project: id → lastModifiedAt in epoch milliseconds. */
type Index = Map<string, number>;

/** The order a sort on lastModifiedAt alone answers: by it in the direction, ties by id ascending. */
const orderOfIndex = (index: Index, descending: boolean): IndexEntry[] =>
  [...index]
    .sort(([idA, a], [idB, b]) => (a !== b ? (a - b) * (descending ? -1 : 1) : idA < idB ? -1 : 1))
    .map(([id, millisecond]) => ({ id, lastModifiedAt: at(millisecond) }));

/** What a pass over `count` entries passes: the trailing entries that tie with the next are given back (resource-query-store.ts). */
const passOver = (order: IndexEntry[], count: number): IndexEntry[] => {
  let end = Math.min(count, order.length);
  if (end < order.length) while (end > 0 && order[end - 1]!.lastModifiedAt === order[end]!.lastModifiedAt) end--;
  return order.slice(0, end);
};

/** The order as the head and the rest read from the index now: what a page sees. */
const seenThrough = (index: Index, descending: boolean, order: { head: IndexEntry[]; rest: { from?: string; to?: string } }) => [
  ...order.head,
  ...orderOfIndex(index, descending).filter(
    (entry) => (order.rest.from === undefined || entry.lastModifiedAt >= order.rest.from) && (order.rest.to === undefined || entry.lastModifiedAt <= order.rest.to),
  ),
];

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
const randomFrom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('recordOrder', () => {
  it('keeps what was modified before the margin, in order, and nothing without such an entry', () => {
    const passed = [
      { id: 'b', lastModifiedAt: at(NOW - 100_000) },
      { id: 'a', lastModifiedAt: at(NOW - 100_000) },
      { id: 'c', lastModifiedAt: at(NOW - 50_000) },
      { id: 'd', lastModifiedAt: at(NOW - INDEX_LAG_MARGIN_MS) },
    ];
    expect(recordOrder(passed, { descending: false, now: NOW })).toEqual({
      descending: false,
      recordedAt: at(NOW),
      settledBefore: at(NOW - INDEX_LAG_MARGIN_MS),
      entries: [passed[1], passed[0], passed[2]],
    });
    expect(recordOrder([...passed].reverse(), { descending: true, now: NOW })?.entries).toEqual([passed[2], passed[1], passed[0]]);
    expect(recordOrder([passed[3]!], { descending: true, now: NOW })).toBeUndefined();
  });

  it(`keeps at most ${MAX_RECORDED_ENTRIES} entries, ending where lastModifiedAt changes`, () => {
    // Pairs of resources share each millisecond: the entry at the cut ties with the one before it.
    const passed = Array.from({ length: MAX_RECORDED_ENTRIES + 11 }, (_, index) => ({
      id: `id-${String(index).padStart(5, '0')}`,
      lastModifiedAt: at(NOW - 10_000_000 + Math.floor((index + 1) / 2)),
    }));
    const { entries } = recordOrder(passed, { descending: false, now: NOW })!;
    expect(entries).toEqual(passed.slice(0, MAX_RECORDED_ENTRIES - 1));
    expect(entries.at(-1)!.lastModifiedAt).not.toBe(passed[MAX_RECORDED_ENTRIES - 1]!.lastModifiedAt);
  });
});

describe('currentOrder', () => {
  for (const descending of [false, true]) {
    it(`${descending ? 'descending' : 'ascending'}: the recorded order, updated, created and deleted since, is the order of the index now`, () => {
      for (let seed = 1; seed <= 200; seed++) {
        const random = randomFrom(seed);
        const index: Index = new Map();
        // Coarse instants: many resources tie.
        for (let n = 0; n < 300; n++) index.set(`id-${String(n).padStart(4, '0')}`, NOW - 10_000_000 + Math.floor(random() * 150) * 1000);
        const passed = passOver(orderOfIndex(index, descending), 1 + Math.floor(random() * 320));
        const recorded = recordOrder(passed, { descending, now: NOW });
        if (!recorded) continue;

        // After the recording every write stamps an instant from settledBefore on, every delete leaves a tombstone.
        const deleted = new Set<string>();
        const ids = [...index.keys()];
        const changes = Math.floor(random() * 40);
        for (let change = 0; change < changes; change++) {
          const when = NOW - INDEX_LAG_MARGIN_MS + Math.floor(random() * 5) * 10_000;
          const roll = random();
          const id = ids[Math.floor(random() * ids.length)]!;
          if (roll < 0.5 && index.has(id)) index.set(id, when);
          else if (roll < 0.75 && index.has(id)) {
            index.delete(id);
            deleted.add(id);
          } else index.set(`new-${seed}-${change}`, when);
        }
        const changed = orderOfIndex(index, descending).filter((entry) => entry.lastModifiedAt >= recorded.settledBefore);
        const order = currentOrder(recorded, changed, deleted);
        expect(seenThrough(index, descending, order), `seed ${seed}`).toEqual(orderOfIndex(index, descending));
      }
    });
  }

  it('puts the rest strictly past the last recorded entry, even once that one has moved', () => {
    const recorded = recordOrder(
      [
        { id: 'a', lastModifiedAt: at(NOW - 90_000) },
        { id: 'b', lastModifiedAt: at(NOW - 80_000) },
      ],
      { descending: false, now: NOW },
    )!;
    const order = currentOrder(recorded, [{ id: 'b', lastModifiedAt: at(NOW) }], new Set());
    expect(order).toEqual({ head: [{ id: 'a', lastModifiedAt: at(NOW - 90_000) }], rest: { from: at(NOW - 80_000 + 1) } });
  });
});

describe('tieGroupStart', () => {
  const order = (a: IndexEntry, b: IndexEntry) => (a.lastModifiedAt < b.lastModifiedAt ? -1 : a.lastModifiedAt > b.lastModifiedAt ? 1 : 0);
  const entries = [1, 2, 2, 2, 3].map((second, position) => ({ id: `id-${position}`, lastModifiedAt: at(NOW + second * 1000) }));

  it('backs up to the first entry that ties with the one at the position', () => {
    expect(tieGroupStart(entries, 3, order)).toBe(1);
    expect(tieGroupStart(entries, 1, order)).toBe(1);
    expect(tieGroupStart(entries, 4, order)).toBe(4);
    expect(tieGroupStart(entries, 9, order)).toBe(5);
  });
});

describe('the life of a recording', () => {
  const recorded = recordOrder([{ id: 'a', lastModifiedAt: at(NOW - 90_000) }], { descending: true, now: NOW })!;

  it('is used while the tombstones of its deletes are all there', () => {
    const settled = Date.parse(recorded.settledBefore);
    expect(isUsable(recorded, settled + RECORDED_ORDER_LIFETIME_MS)).toBe(true);
    expect(isUsable(recorded, settled + RECORDED_ORDER_LIFETIME_MS + 1)).toBe(false);
  });

  it('is not used once the tombstones of deletes since its margin may be gone, whatever the margin (LAST_MODIFIED_INDEX_LAG_MS)', () => {
    const wide = recordOrder([{ id: 'a', lastModifiedAt: at(NOW - 3 * 3600_000) }], { descending: false, now: NOW, lagMs: 2 * 3600_000 })!;
    // Its deletes are read from the tombstones from settledBefore on, which the TTL may remove a day after each.
    expect(isUsable(wide, Date.parse(wide.settledBefore) + TOMBSTONE_LIFETIME_MS)).toBe(false);
  });

  it('is replaced, once it no longer serves, only after a while', () => {
    expect(mayRecordAgain(undefined, NOW)).toBe(true);
    expect(mayRecordAgain(recorded, NOW + RECORD_AGAIN_AFTER_MS - 1)).toBe(false);
    expect(mayRecordAgain(recorded, NOW + RECORD_AGAIN_AFTER_MS)).toBe(true);
  });
});
