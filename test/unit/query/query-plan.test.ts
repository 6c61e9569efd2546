import { describe, expect, it } from 'vitest';
import { anyMatch, collectPage, planQuery, QueryBudget } from '../../../shared/domain/query';
import { QueryTimedOutError } from '../../../shared/domain/errors';
import { creationOrderedId, idPrefixAt, isCreationOrdered } from '../../../shared/domain/resource-id';

const plan = (where: string[], sort: string[] = [], variables: Record<string, string[]> = {}) => planQuery({ where, sort, variables });

describe('creation-ordered ids', () => {
  it('sort as their createdAt does, and carry its millisecond', () => {
    const times = ['2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.001Z', '2026-11-23T10:00:00.000Z'];
    const ids = times.map(creationOrderedId);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isCreationOrdered(ids[1]!, times[1]!)).toBe(true);
    expect(isCreationOrdered(ids[1]!, times[0]!)).toBe(false);
    expect(ids[2]!.startsWith(idPrefixAt(Date.parse(times[2]!)))).toBe(true);
  });
});

describe('planQuery: what an index can answer', () => {
  it('names candidates from top-level id and key conjuncts, intersecting them, with variables', () => {
    const [a, b, c] = ['2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.001Z', '2025-01-01T00:00:00.002Z'].map(creationOrderedId);
    expect(plan([`id in ("${a}", "${b}", "${c}") and version = 1`, `id = "${b}"`]).ids).toEqual([b]);
    expect(plan(['key in (:keys)'], [], { keys: ['k1', 'k2'] }).keys).toEqual(['k1', 'k2']);
    expect(plan(['key = "a" or version = 1']).keys).toBeUndefined();
    expect(plan(['not(key = "a")']).keys).toBeUndefined();
    expect(plan(['key not in ("a")']).keys).toBeUndefined();
  });

  it('drops named ids and keys that cannot exist (not of their pattern): none left names no candidate', () => {
    const id = creationOrderedId('2025-01-01T00:00:00.000Z');
    const long = 'a'.repeat(1100);
    expect(plan([`id = "${long}"`]).ids).toEqual([]);
    expect(plan([`id in ("${long}", "${id}", "not-an-id")`]).ids).toEqual([id]);
    expect(plan([`key in ("${long}", "k1", "k 2", "x")`]).keys).toEqual(['k1']);
    expect(plan(['key = :key'], [], { key: [long] }).keys).toEqual([]);
    // Not named: the evaluator alone decides, as before.
    expect(plan([`id != "${long}"`]).ids).toBeUndefined();
    expect(plan([`not(key = "${long}")`]).keys).toBeUndefined();
    expect(plan([`key = "${long}" or version = 1`]).keys).toBeUndefined();
  });

  it('turns createdAt ranges into id ranges only when ids are creation-ordered', () => {
    const ranged = plan(['createdAt >= "2025-01-01T00:00:00.000Z" and createdAt < "2025-02-01T00:00:00Z"']);
    expect(ranged.usesCreationOrder).toBe(true);
    expect(ranged.access(true)).toMatchObject({
      fromId: idPrefixAt(Date.parse('2025-01-01T00:00:00.000Z')),
      toId: idPrefixAt(Date.parse('2025-02-01T00:00:00Z')),
    });
    expect(ranged.access(false).fromId).toBeUndefined();
    expect(plan(['id > "m"']).access(false).fromId).toBe('m');
  });

  it('reads in the store order for id and (ordered ids) createdAt sorts, reversed for desc', () => {
    expect(plan([], ['createdAt desc']).access(true)).toMatchObject({ descending: true, streamOrder: expect.any(Function) });
    expect(plan([], ['createdAt desc']).access(false).streamOrder).toBeUndefined();
    expect(plan([], ['id desc']).access(false).descending).toBe(true);
    expect(plan([], ['key asc']).access(true).streamOrder).toBeUndefined();
    expect(plan([]).access(false).streamOrder).toBeDefined();
  });

  it('tells whether the predicate reads only given top-level fields (a deep offset then passes over keys only)', () => {
    const table = ['id', 'createdAt'];
    expect(plan([]).readsOnly(table)).toBe(true);
    expect(plan(['createdAt >= "2025-01-01T00:00:00Z"', 'id > "a" and not(createdAt > "2026-01-01T00:00:00Z")']).readsOnly(table)).toBe(true);
    expect(plan(['createdAt >= "2025-01-01T00:00:00Z" and version = 1']).readsOnly(table)).toBe(false);
    expect(plan(['createdAt >= "2025-01-01T00:00:00Z" or objectTypeProperty(arrayOfIntExample contains 1)']).readsOnly(table)).toBe(false);
    expect(plan(['lastModifiedAt > "2025-01-01T00:00:00Z"']).readsOnly(table)).toBe(false);
    expect(plan(['lastModifiedAt > "2025-01-01T00:00:00Z"']).readsOnly(['id', 'lastModifiedAt'])).toBe(true);
  });

  it('names a range and order of the optional lastModifiedAt index, as stored instants (UTC, milliseconds)', () => {
    const sorted = plan(['lastModifiedAt > "2025-01-01T01:00:00+01:00" and lastModifiedAt <= "2025-03-01T00:00:00Z"'], ['lastModifiedAt desc']);
    expect(sorted.lastModifiedAccess).toMatchObject({
      from: '2025-01-01T00:00:00.000Z',
      to: '2025-03-01T00:00:00.000Z',
      bounded: true,
      descending: true,
      streamOrder: expect.any(Function),
    });
    expect(plan([], ['lastModifiedAt asc', 'id desc']).lastModifiedAccess).toMatchObject({ bounded: false, descending: false });
    // A range alone: read from the index, in no useful order (the evaluator sorts).
    expect(plan(['lastModifiedAt < "2025-01-01T00:00:00Z"']).lastModifiedAccess).toEqual({ to: '2025-01-01T00:00:00.000Z', bounded: true, descending: false });
    // Another store range or order is taken instead; no range nor sort on it: no index.
    expect(plan(['lastModifiedAt < "2025-01-01T00:00:00Z"'], ['createdAt desc']).lastModifiedAccess).toBeUndefined();
    expect(plan(['lastModifiedAt < "2025-01-01T00:00:00Z" and id > "a"']).lastModifiedAccess).toBeUndefined();
    expect(plan(['version = 1'], ['key asc']).lastModifiedAccess).toBeUndefined();
    // A bound whose text would not sort (past year 9999 in UTC) is no bound: still a superset.
    expect(plan(['lastModifiedAt < "9999-12-31T23:30:00-01:00"'], ['lastModifiedAt asc']).lastModifiedAccess).toMatchObject({ bounded: false });
  });
});

describe('collectPage with a stream order', () => {
  const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
  // Newest first as the store reverses it: same-millisecond pairs come in id desc.
  const stream = [
    { id: 'd', createdAt: at(3) },
    { id: 'c', createdAt: at(2) },
    { id: 'b', createdAt: at(2) },
    { id: 'a', createdAt: at(1) },
  ];

  it('re-sorts ties by id and stops after the first document past the page', async () => {
    const createdDesc = plan([], ['createdAt desc']);
    const { streamOrder } = createdDesc.access(true);
    let read = 0;
    const counted = (function* () {
      for (const document of stream) {
        read++;
        yield document;
      }
    })();
    const page = await collectPage(counted, { ...createdDesc, streamOrder }, { limit: 2, offset: 0, withTotal: false });
    expect(page.results.map((document) => document.id)).toEqual(['d', 'b']);
    expect(read).toBe(4); // 'b' ties with 'c': the page is final only at 'a'
  });
});

describe('QueryBudget', () => {
  it('throws QueryTimedOutError past its items, with a message that says what to do', async () => {
    const documents = Array.from({ length: 11 }, (_, index) => ({ id: String(index) }));
    const all = plan([]);
    await expect(collectPage(documents, all, { limit: 5, offset: 0, withTotal: true }, { budget: new QueryBudget(10) })).rejects.toThrow(
      QueryTimedOutError,
    );
    await expect(collectPage(documents, all, { limit: 5, offset: 0, withTotal: true }, { budget: new QueryBudget(11) })).resolves.toMatchObject({
      total: 11,
    });
    await expect(anyMatch(documents, () => false, new QueryBudget(3))).rejects.toThrow(/withTotal=false/);
  });

  it('tells the advice it is given (search cannot page by where)', async () => {
    const documents = Array.from({ length: 5 }, (_, index) => ({ id: String(index) }));
    const budget = new QueryBudget(3).advising(QueryBudget.SEARCH_ADVICE);
    await expect(anyMatch(documents, () => false, budget)).rejects.toThrow(`more than 3 resources. ${QueryBudget.SEARCH_ADVICE}`);
    expect(budget.maxItems).toBe(3);
  });

  it('throws past its time, read from the clock every 64 documents', async () => {
    let now = 0;
    const budget = new QueryBudget(1_000_000, 100, () => now);
    const slow = (function* () {
      for (let index = 0; ; index++) {
        now += 10;
        yield { id: String(index) };
      }
    })();
    await expect(anyMatch(slow, () => false, budget)).rejects.toThrow(/more than 100 ms/);
  });

  it('reads its limits from the environment, falling back to the defaults', () => {
    expect(QueryBudget.fromEnvironment({ QUERY_BUDGET_ITEMS: '50', QUERY_BUDGET_MS: 'x' })).toMatchObject({
      maxItems: 50,
      maxMilliseconds: QueryBudget.DEFAULT_MILLISECONDS,
    });
  });
});
