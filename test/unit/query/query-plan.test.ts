import { describe, expect, it } from 'vitest';
import { anyMatch, collectPage, planQuery, QueryBudget } from '../../../shared/domain/query';
import { QueryTimedOutError } from '../../../shared/domain/errors';
import { creationOrderedId, idPrefixAt, isCreationOrdered } from '../../../shared/domain/resource-id';

const INDEXED = { lastModifiedIndex: true };
const plan = (where: string[], sort: string[] = [], variables: Record<string, string[]> = {}, store = INDEXED) =>
  planQuery({ where, sort, variables, withTotal: false }, store);
const rangeOf = (planned: { read: unknown }) => (planned.read as { range: Record<string, unknown> }).range;

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

describe('planQuery: the one store read that answers a query', () => {
  it('names candidates from top-level id and key conjuncts, intersecting them, with variables', () => {
    const [a, b, c] = ['2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.001Z', '2025-01-01T00:00:00.002Z'].map(creationOrderedId);
    expect(plan([`id in ("${a}", "${b}", "${c}") and version = 1`, `id = "${b}"`]).read).toEqual({ ids: [b] });
    expect(plan(['key in (:keys)'], [], { keys: ['k1', 'k2'] }).read).toEqual({ keys: ['k1', 'k2'] });
    expect(plan(['key = "a" or version = 1']).read).toHaveProperty('range');
    expect(plan(['not(key = "a")']).read).toHaveProperty('range');
    expect(plan(['key not in ("a")']).read).toHaveProperty('range');
  });

  it('drops named ids and keys that cannot exist (not of their pattern): none left names no candidate', () => {
    const id = creationOrderedId('2025-01-01T00:00:00.000Z');
    const long = 'a'.repeat(1100);
    expect(plan([`id = "${long}"`]).read).toEqual({ ids: [] });
    expect(plan([`id in ("${long}", "${id}", "not-an-id")`]).read).toEqual({ ids: [id] });
    expect(plan([`key in ("${long}", "k1", "k 2", "x")`]).read).toEqual({ keys: ['k1'] });
    expect(plan(['key = :key'], [], { key: [long] }).read).toEqual({ keys: [] });
    // Not named: the evaluator alone decides.
    expect(plan([`id != "${long}"`]).read).toHaveProperty('range');
    expect(plan([`key = "${long}" or version = 1`]).read).toHaveProperty('range');
  });

  it('turns createdAt ranges into id ranges of the table (ids are creation-ordered)', () => {
    const ranged = plan(['createdAt >= "2025-01-01T00:00:00.000Z" and createdAt < "2025-02-01T00:00:00Z"']);
    expect(rangeOf(ranged)).toEqual({
      on: 'id',
      from: idPrefixAt(Date.parse('2025-01-01T00:00:00.000Z')),
      to: idPrefixAt(Date.parse('2025-02-01T00:00:00Z')),
      descending: false,
    });
    expect(rangeOf(plan(['id > "m"']))).toMatchObject({ on: 'id', from: 'm' });
  });

  it('reads a cursor page (sort=id asc, id > last id) as the id range after it, in its order', () => {
    const last = creationOrderedId('2025-01-01T00:00:00.000Z');
    const cursor = plan([`id > "${last}"`], ['id asc']);
    expect(cursor.read).toEqual({ range: { on: 'id', from: last, descending: false } });
    expect(cursor.streamOrder).toBeDefined();
  });

  it('reads in the table order for id and createdAt sorts, reversed for desc', () => {
    expect(rangeOf(plan([], ['createdAt desc']))).toMatchObject({ on: 'id', descending: true });
    expect(plan([], ['createdAt desc']).streamOrder).toBeDefined();
    expect(rangeOf(plan([], ['id desc']))).toMatchObject({ on: 'id', descending: true });
    expect(plan([], ['key asc']).streamOrder).toBeUndefined();
    expect(plan([]).streamOrder).toBeDefined();
  });

  it('names a range and order of the lastModifiedAt index, as stored instants (UTC, milliseconds)', () => {
    const sorted = plan(['lastModifiedAt > "2025-01-01T01:00:00+01:00" and lastModifiedAt <= "2025-03-01T00:00:00Z"'], ['lastModifiedAt desc']);
    expect(rangeOf(sorted)).toEqual({ on: 'lastModifiedAt', from: '2025-01-01T00:00:00.000Z', to: '2025-03-01T00:00:00.000Z', descending: true });
    expect(sorted.streamOrder).toBeDefined();
    expect(rangeOf(plan([], ['lastModifiedAt asc', 'id desc']))).toEqual({ on: 'lastModifiedAt', descending: false });
    // A range alone: its entries from the index, its resources in id order, so the page can end early.
    const alone = plan(['lastModifiedAt < "2025-01-01T00:00:00Z"']);
    expect(alone.read).toEqual({ range: { on: 'lastModifiedAt', to: '2025-01-01T00:00:00.000Z', descending: false, order: 'id' } });
    expect([{ id: 'b' }, { id: 'a' }].sort(alone.streamOrder)).toEqual([{ id: 'a' }, { id: 'b' }]);
    const byIdDesc = plan(['lastModifiedAt > "2025-01-01T00:00:00Z"'], ['id desc']);
    expect(rangeOf(byIdDesc)).toEqual({ on: 'lastModifiedAt', from: '2025-01-01T00:00:00.000Z', descending: true, order: 'id' });
    expect([{ id: 'a' }, { id: 'b' }].sort(byIdDesc.streamOrder)).toEqual([{ id: 'b' }, { id: 'a' }]);
    // A filtered total reads every match: the range in the index's order, no entries read first.
    const everyMatch = planQuery({ where: ['lastModifiedAt < "2025-01-01T00:00:00Z"'], sort: [], variables: {}, withTotal: true }, INDEXED);
    expect(everyMatch.read).toEqual({ range: { on: 'lastModifiedAt', to: '2025-01-01T00:00:00.000Z', descending: false } });
    expect(everyMatch.streamOrder).toBeUndefined();
    // Another table range or order is taken instead.
    expect(rangeOf(plan(['lastModifiedAt < "2025-01-01T00:00:00Z"'], ['createdAt desc'])).on).toBe('id');
    expect(rangeOf(plan(['lastModifiedAt < "2025-01-01T00:00:00Z" and id > "a"'])).on).toBe('id');
    // A bound whose text would not sort (past year 9999 in UTC) is no bound: still a superset.
    expect(rangeOf(plan(['lastModifiedAt < "9999-12-31T23:30:00-01:00"'], ['lastModifiedAt asc']))).toEqual({ on: 'lastModifiedAt', descending: false });
  });

  it('reads the table when the deployment has no lastModifiedAt index, or a filtered total needs every match', () => {
    expect(rangeOf(plan([], ['lastModifiedAt desc'], {}, { lastModifiedIndex: false }))).toEqual({ on: 'id', descending: false });
    const total = planQuery({ where: ['version = 1'], sort: ['lastModifiedAt desc'], variables: {}, withTotal: true }, INDEXED);
    expect(rangeOf(total).on).toBe('id');
    // Unfiltered, the total is the counter's and the page still ends early through the index.
    const counted = planQuery({ where: [], sort: ['lastModifiedAt desc'], variables: {}, withTotal: true }, INDEXED);
    expect(counted).toMatchObject({ totalFromCounter: true, read: { range: { on: 'lastModifiedAt' } } });
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
    let read = 0;
    const counted = (function* () {
      for (const document of stream) {
        read++;
        yield document;
      }
    })();
    const page = await collectPage(counted, createdDesc, { limit: 2, offset: 0, withTotal: false });
    expect(page.results.map((document) => document.id)).toEqual(['d', 'b']);
    expect(read).toBe(4); // 'b' ties with 'c': the page is final only at 'a'
  });
});

describe('collectPage with a byte bound', () => {
  // Ten documents of 1,000 bytes of JSON each, read lazily: the bound must stop the reading.
  const documents = Array.from({ length: 10 }, (_, index) => ({ id: String(index), text: 'x'.repeat(1_000 - 20) }));
  const bytes = { max: 3_500, reason: 'more than a response can carry', orElse: 'send Accept-Encoding: gzip' };

  it('refuses with advice on limit as soon as the window holds more, having read no further', async () => {
    expect(JSON.stringify(documents[0]).length).toBe(1_000);
    let read = 0;
    const counted = (function* () {
      for (const document of documents) {
        read++;
        yield document;
      }
    })();
    await expect(collectPage(counted, plan([]), { limit: 10, offset: 0, withTotal: false }, { bytes })).rejects.toThrow(
      'This page would take more than 0.0 MB, more than a response can carry: ask for fewer results (limit=3 or less), or send Accept-Encoding: gzip.',
    );
    expect(read).toBe(4);
  });

  it('counts what the window holds: documents sorted out of it free their bytes', async () => {
    const page = await collectPage(documents, plan([], ['id desc']), { limit: 3, offset: 0, withTotal: true }, { bytes });
    expect(page.results.map((document) => document.id)).toEqual(['9', '8', '7']);
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
