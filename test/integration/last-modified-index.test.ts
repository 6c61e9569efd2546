import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../local/dynamodb-local';
import { outsideFunctions } from '../../local/table-access';
import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { QueryBudget } from '../../shared/domain/query';
import { MAX_CHANGES_SINCE_RECORDING, RECORDED_ORDER_FROM_OFFSET } from '../../shared/domain/query/last-modified-order';
import { QueryParameters } from '../../shared/domain/query-parameters';
import type { Resource } from '../../shared/domain/resource';
import { ResourceQueryService } from '../../shared/services/query-service';
import { DynamoDbResourceQueryStore } from '../../shared/store/dynamodb/resource-query-store';
import { lastModifiedOrderKey } from '../../shared/store/dynamodb/keys';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { LAST_MODIFIED_INDEX_NAME } from '../../shared/store/dynamodb/table-schema';
import { draftExample } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * The optional lastModifiedAt index (LOCAL_LAST_MODIFIED_INDEX=true, `-c lastModifiedIndex=true`):
 * sorts and ranges on lastModifiedAt read about a page from it, whatever the project's size, and
 * answer what the evaluator answers without it. The suite's table was made without the index, so
 * this file also adds it the way `npm start` does to an existing local table (UpdateTable).
 * Read units are DynamoDB's own ConsumedCapacity; the budget is set below the large project's
 * size, so only the index can answer there.
 */
const SMALL = 'lastmod-small';
const LARGE = 'lastmod-large';
const TIES = 'lastmod-ties';
const SIZES = { [SMALL]: 60, [LARGE]: 600 } as const;
const BUDGET_ITEMS = 300;
let gateway: InProcessGateway;
let dynamoDb: DynamoDBDocumentClient;
let tableName: string;
let store: DynamoDbResourceStore;
let queries: DynamoDbResourceQueryStore;
/** The same queries without the index, on the evaluator path, with a budget that fits the project. */
let evaluator: ResourceQueryService;

beforeAll(async () => {
  const endpoints = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8'));
  await ensureTable(endpoints.dynamoDbEndpoint, endpoints.tableName, { lastModifiedIndex: true });
  // No margin for the index's lag: DynamoDB Local updates it with the table, and the tests write and read at once.
  gateway = await startInProcessGateway({ QUERY_BUDGET_ITEMS: String(BUDGET_ITEMS), LAST_MODIFIED_INDEX: LAST_MODIFIED_INDEX_NAME, LAST_MODIFIED_INDEX_LAG_MS: '0' });
  dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
  tableName = endpoints.tableName;
  store = new DynamoDbResourceStore(dynamoDb, endpoints.tableName);
  queries = new DynamoDbResourceQueryStore(dynamoDb, endpoints.tableName);
  evaluator = new ResourceQueryService(queries, new QueryBudget(10_000));
  for (const [project, size] of Object.entries(SIZES)) {
    let next = 0;
    const created: Resource[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < size) {
          const index = next++;
          created.push(await store.create(project, { objectTypeProperty: { ...draftExample.objectTypeProperty, arrayOfIntExample: [index % 7] } }));
        }
      }),
    );
    // Every third one updated since, in another order than creation: lastModifiedAt order is its own.
    for (const resource of created.filter((_, index) => index % 3 === 0).reverse()) {
      await store.update(project, resource.id, resource.version, { someProperty: `updated-${resource.id}` });
    }
  }
}, 180_000);

afterAll(() => gateway?.stop());

const body = (observed: { answer: { body?: unknown } }) => JSON.parse(observed.answer.body as string);
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const idsOf = (resources: { id: string }[]) => resources.map((resource) => resource.id);
const parametersOf = (search: string) => {
  const entries = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(search)) entries.set(name, [...(entries.get(name) ?? []), value]);
  return new QueryParameters(entries);
};
/** Through the index (the in-process handlers), and on the evaluator path without it: the same answer. */
const both = async (project: string, search: string) => {
  const observed = await gateway.send('GET', `/${project}/resource?${search}`);
  expect(observed.answer.statusCode).toBe(200);
  const reference = await evaluator.query(project, parametersOf(search));
  expect(idsOf(body(observed).results)).toEqual(idsOf(reference.results));
  expect(body(observed).results).toEqual(reference.results);
  return { observed, reference };
};
/** The first lastModifiedAt from `start` on (stepping by `step`) that no other resource of `sorted` shares. */
const uniqueInstantNear = (sorted: Resource[], start: number, step: 1 | -1): string => {
  const unique = (index: number) => sorted.filter((resource) => resource.lastModifiedAt === sorted[index]!.lastModifiedAt).length === 1;
  let index = start;
  while (!unique(index)) index += step;
  return sorted[index]!.lastModifiedAt;
};
const all = async (project: string) => (await evaluator.query(project, parametersOf('limit=500&withTotal=false'))).results;

describe('with the lastModifiedAt index (GET and HEAD /{projectKey}/resource, GET …/sorted-query-parameters)', () => {
  it('sort=lastModifiedAt desc|asc, limit 20: the evaluator\'s answer, one index page and one BatchGetItem, whatever the project size', async () => {
    const units: Record<string, number> = {};
    for (const project of [SMALL, LARGE]) {
      for (const direction of ['desc', 'asc']) {
        const { observed } = await both(project, `sort=lastModifiedAt ${direction}&limit=20&withTotal=false`);
        expect(observed.calls).toEqual(['QueryCommand', 'BatchGetItemCommand']);
        units[`${project} ${direction}`] = observed.readUnits;
        // The index page (tiny entries) and 21 resources read strongly consistently, a unit each.
        expect(observed.readUnits).toBeLessThanOrEqual(23);
      }
    }
    // A full read of the large project is about 600 × 0.6 KB / 4 KB ≈ 90 units, and its size is over the budget.
    expect(units[`${LARGE} desc`]).toBeLessThanOrEqual(units[`${SMALL} desc`]! + 1);
  });

  it('at an offset, and with a predicate on other fields: the evaluator\'s answer', async () => {
    await both(LARGE, 'sort=lastModifiedAt desc&limit=20&offset=40&withTotal=false');
    const { observed } = await both(LARGE, `${where('objectTypeProperty(arrayOfIntExample contains 3)')}&sort=lastModifiedAt asc&limit=10&withTotal=false`);
    expect(body(observed).count).toBe(10);
  });

  it('deep offsets pass over index entries without re-reading their resources: the evaluator\'s answer, about a page of read units', async () => {
    for (const direction of ['asc', 'desc']) {
      // From RECORDED_ORDER_FROM_OFFSET on, a page starts from a recorded order (below).
      for (const offset of [1, 40, RECORDED_ORDER_FROM_OFFSET - 1]) {
        const { observed } = await both(LARGE, `sort=lastModifiedAt ${direction}&limit=20&offset=${offset}&withTotal=false`);
        expect(body(observed).offset).toBe(offset);
        // The pass over the offset (index entries only), the page's index entries, its resources.
        expect(observed.calls).toEqual(['QueryCommand', 'QueryCommand', 'BatchGetItemCommand']);
        // Index entries are about 100 bytes, read eventually consistently (0.5 unit per 4 KB);
        // without the pass, offset + 21 units.
        expect(observed.readUnits).toBeLessThanOrEqual(23 + Math.ceil((offset * 0.1) / 4));
      }
    }
  });

  it('a deep offset whose page starts inside a group of equal lastModifiedAt: the group is read whole and ordered by id', async () => {
    // Groups of 7 resources written in one millisecond.
    let calls = 0;
    const grouped = new DynamoDbResourceStore((await import('../../shared/composition-root')).dynamoDb(), process.env.TABLE_NAME!, () =>
      new Date(Date.UTC(2026, 0, 1) + Math.floor(calls++ / 7)).toISOString(),
    );
    for (let index = 0; index < 130; index++) await grouped.create(TIES, { objectTypeProperty: draftExample.objectTypeProperty });
    for (const direction of ['asc', 'desc']) {
      for (const offset of [98, 100, 103, 126]) await both(TIES, `sort=lastModifiedAt ${direction}&limit=5&offset=${offset}&withTotal=false`);
    }
  });

  it('a deep offset within a lastModifiedAt range: the range decides on the index entries; other conjuncts read the offset in full', async () => {
    const byModification = [...(await all(LARGE))].sort((a, b) => a.lastModifiedAt.localeCompare(b.lastModifiedAt));
    const range = `lastModifiedAt > "${byModification[100]!.lastModifiedAt}" and lastModifiedAt < "${byModification[400]!.lastModifiedAt}"`;
    for (const direction of ['asc', 'desc']) {
      const { observed } = await both(LARGE, `${where(range)}&sort=lastModifiedAt ${direction}&limit=20&offset=250&withTotal=false`);
      // Index entries only until the page's resources: one BatchGetItem (a second pass reads what
      // the exclusive bound's millisecond took from the first).
      expect(observed.calls.filter((call) => call === 'BatchGetItemCommand')).toEqual(['BatchGetItemCommand']);
      expect(observed.calls.at(-1)).toBe('BatchGetItemCommand');
      expect(observed.readUnits).toBeLessThanOrEqual(30);
    }
    const filtered = await both(LARGE, `${where(`${range} and version = 1`)}&sort=lastModifiedAt asc&limit=20&offset=150&withTotal=false`);
    expect(filtered.observed.readUnits).toBeGreaterThan(150);
  });

  it('lastModifiedAt ranges, alone or with the sort: the evaluator\'s answer, reading only the range', async () => {
    const byModification = [...(await all(LARGE))].sort((a, b) => a.lastModifiedAt.localeCompare(b.lastModifiedAt));
    const from = byModification[100]!.lastModifiedAt;
    const to = byModification[130]!.lastModifiedAt;
    const range = where(`lastModifiedAt > "${from}" and lastModifiedAt < "${to}"`);
    const inRange = byModification.filter((resource) => resource.lastModifiedAt > from && resource.lastModifiedAt < to);
    expect(inRange.length).toBeGreaterThan(5);
    const sorted = await both(LARGE, `${range}&sort=lastModifiedAt desc&limit=20`);
    expect(body(sorted.observed).total).toBe(inRange.length);
    // The range's index entries (both ends included) and their resources, not the project.
    expect(sorted.observed.readUnits).toBeLessThanOrEqual(inRange.length + 12);
    const alone = await both(LARGE, `${range}&limit=100&withTotal=false`);
    expect(body(alone.observed).count).toBe(inRange.length);
    expect(alone.observed.readUnits).toBeLessThanOrEqual(inRange.length + 12);
    // A page inside the range, its ends not shared with other resources: one index read, one BatchGetItem.
    const [lower, upper] = [uniqueInstantNear(byModification, 150, 1), uniqueInstantNear(byModification, 190, -1)];
    const page = await both(LARGE, `${where(`lastModifiedAt > "${lower}" and lastModifiedAt < "${upper}"`)}&sort=lastModifiedAt desc&limit=5&withTotal=false`);
    expect(body(page.observed).count).toBe(5);
    expect(page.observed.calls).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    const head = await gateway.send('HEAD', `/${LARGE}/resource?${range}`);
    expect(head.answer.statusCode).toBe(200);
    // The first few entries of the range and their resources, not a hundred of them.
    expect(head.readUnits).toBeLessThanOrEqual(6);
    const empty = await gateway.send('HEAD', `/${LARGE}/resource?${where(`lastModifiedAt > "${to}" and lastModifiedAt < "${from}"`)}`);
    expect(empty.answer.statusCode).toBe(404);
  });

  it('a lastModifiedAt range alone, its page in id order: the range\'s ids from the index keys, then about a page of resources, not the range', async () => {
    const byModification = [...(await all(LARGE))].sort((a, b) => a.lastModifiedAt.localeCompare(b.lastModifiedAt));
    // Ends not shared with other resources: each leaves out one resource at most.
    const [from, to] = [uniqueInstantNear(byModification, 200, 1), uniqueInstantNear(byModification, 330, -1)];
    const inRange = `lastModifiedAt > "${from}" and lastModifiedAt < "${to}"`;
    const range = where(inRange);
    // Well over a page, within the budget (its ids are counted against it).
    const { total } = await evaluator.query(LARGE, parametersOf(`${range}&limit=1`));
    expect(total).toBeGreaterThan(100);
    expect(total).toBeLessThan(BUDGET_ITEMS);
    const page = await both(LARGE, `${range}&limit=5&offset=3&withTotal=false`);
    expect(body(page.observed).count).toBe(5);
    expect(page.observed.calls).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    // The keys of the range's index entries (a few units) and 9 resources (offset, page, one more).
    expect(page.observed.readUnits).toBeLessThan(25);
    // With another conjunct that leaves out most of the range, more resources are read, in id order, until the page is full.
    const fewer = await both(LARGE, `${where(`${inRange} and objectTypeProperty(arrayOfIntExample contains 3)`)}&limit=5&withTotal=false`);
    expect(body(fewer.observed).count).toBe(5);
  });

  it('search narrowed by filter.query=lastModifiedAt:range(…): the range through the index, its facets and total exact', async () => {
    const byModification = [...(await all(LARGE))].sort((a, b) => a.lastModifiedAt.localeCompare(b.lastModifiedAt));
    const [from, to] = [byModification[100]!.lastModifiedAt, byModification[160]!.lastModifiedAt];
    const inRange = byModification.filter((resource) => resource.lastModifiedAt >= from && resource.lastModifiedAt <= to);
    const search = `filter.query=${encodeURIComponent(`lastModifiedAt:range("${from}" to "${to}")`)}&facet=${encodeURIComponent('objectTypeProperty.arrayOfIntExample')}&limit=100`;
    const observed = await gateway.send('GET', `/${LARGE}/resource/searchApiPattern?${search}`);
    expect(observed.answer.statusCode).toBe(200);
    expect(body(observed).total).toBe(inRange.length);
    expect(idsOf(body(observed).results)).toEqual(idsOf(inRange).sort());
    const threes = inRange.filter((resource) => resource.objectTypeProperty.arrayOfIntExample?.includes(3)).length;
    expect(body(observed).facets['objectTypeProperty.arrayOfIntExample'].terms).toContainEqual({ term: 3, count: threes });
    // The range's index entries and their resources (a unit each), not the project's 600.
    expect(observed.readUnits).toBeLessThanOrEqual(inRange.length + 12);
    expect(observed.calls.every((call) => call === 'QueryCommand' || call === 'BatchGetItemCommand')).toBe(true);
  });

  it('without a narrowing range, a total reads the project the usual way (over the budget here: 400 QueryTimedOut)', async () => {
    const observed = await gateway.send('GET', `/${LARGE}/resource?sort=lastModifiedAt desc&limit=20`);
    expect(observed.answer.statusCode).toBe(400);
    expect(body(observed).errors[0].code).toBe('QueryTimedOut');
  });
});

describe('recorded lastModifiedAt orders: deep pages without passing over the offset', () => {
  const RECORDED = 'lastmod-recorded';
  const deep = (direction: string, offset: number) => `sort=lastModifiedAt ${direction}&limit=20&offset=${offset}&withTotal=false`;
  const updateSome = async (project: string, resources: Resource[]) => {
    for (const resource of resources) {
      const [current] = await queries.getMany(project, [resource.id]);
      await store.update(project, current!.id, current!.version, { someProperty: `changed-${Date.now()}-${Math.random()}` });
    }
  };

  beforeAll(async () => {
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let index = worker; index < 300; index += 8) await store.create(RECORDED, { objectTypeProperty: draftExample.objectTypeProperty });
      }),
    );
  }, 60_000);

  it('the first deep page passes over the offset and records it; the next read what changed since and the page, about a page of read units', async () => {
    for (const direction of ['asc', 'desc']) {
      const first = await both(RECORDED, deep(direction, 250));
      // The recording (none yet), the pass over the offset and a few pages more, the page's resources
      // and the recording written, side by side.
      expect([...first.observed.calls].sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'PutItemCommand', 'QueryCommand']);
      for (const offset of [250, 200, 270]) {
        const { observed } = await both(RECORDED, deep(direction, offset));
        // What changed since the recording (index) and the deletes since (tombstones), side by side; the page's resources.
        expect(observed.calls).toEqual(['QueryCommand', 'QueryCommand', 'BatchGetItemCommand']);
        // 21 resources and two small reads: the offset is not read.
        expect(observed.readUnits).toBeLessThanOrEqual(23);
        expect(body(observed).offset).toBe(offset);
      }
    }
    // Past the end: an empty page.
    expect(body((await both(RECORDED, deep('asc', 300))).observed).count).toBe(0);
  });

  it('after updates, creates and deletes since the recording, every page is the evaluator\'s', async () => {
    for (const direction of ['asc', 'desc']) await both(RECORDED, deep(direction, 220));
    const byModification = [...(await all(RECORDED))].sort((a, b) => a.lastModifiedAt.localeCompare(b.lastModifiedAt) || a.id.localeCompare(b.id));
    // Before the offset, on the pages, at the end of the order; deletes before and within the pages.
    await updateSome(RECORDED, [byModification[3]!, byModification[150]!, byModification[230]!, byModification[291]!, byModification[299]!]);
    for (const gone of [byModification[10]!, byModification[225]!, byModification[280]!]) await store.delete(RECORDED, gone.id);
    for (let index = 0; index < 4; index++) await store.create(RECORDED, { objectTypeProperty: draftExample.objectTypeProperty });
    for (const direction of ['asc', 'desc']) {
      for (const offset of [200, 215, 240, 280, 296]) {
        const { observed } = await both(RECORDED, deep(direction, offset));
        expect(observed.calls).not.toContain('PutItemCommand');
        // Past the recorded entries still there, the rest of the offset is passed over from their end: a few entries.
        expect(observed.readUnits).toBeLessThanOrEqual(25);
      }
    }
  });

  class PassCountingStore extends DynamoDbResourceQueryStore {
    passes = 0;
    override skipByLastModified(...args: Parameters<DynamoDbResourceQueryStore['skipByLastModified']>) {
      this.passes++;
      return super.skipByLastModified(...args);
    }
  }

  it('another function reads the stored recording (each keeps the last ones it used in memory) and answers the same', async () => {
    const stored = new PassCountingStore(dynamoDb, tableName, LAST_MODIFIED_INDEX_NAME);
    const elsewhere = new ResourceQueryService(stored, new QueryBudget(10_000), Date.now, 0);
    for (const direction of ['asc', 'desc']) {
      const search = deep(direction, 230);
      expect((await elsewhere.query(RECORDED, parametersOf(search))).results).toEqual((await evaluator.query(RECORDED, parametersOf(search))).results);
    }
    expect(stored.passes).toBe(0);
  });

  it('a recording deleted from the table (as writers around the API must) is not used from memory for more than a minute', async () => {
    const stored = new PassCountingStore(dynamoDb, tableName, LAST_MODIFIED_INDEX_NAME);
    let later = 0;
    const service = new ResourceQueryService(stored, new QueryBudget(10_000), () => Date.now() + later, 0);
    const search = parametersOf(deep('desc', 240));
    await service.query(RECORDED, search);
    await service.query(RECORDED, search);
    const passesBefore = stored.passes;
    await dynamoDb.send(new DeleteCommand({ TableName: tableName, Key: lastModifiedOrderKey(RECORDED, true) }));
    later = 59_000;
    await service.query(RECORDED, search);
    expect(stored.passes).toBe(passesBefore); // still from memory
    later = 61_000;
    expect((await service.query(RECORDED, search)).results).toEqual((await evaluator.query(RECORDED, search)).results);
    expect(stored.passes).toBe(passesBefore + 1); // the table has none: a pass, recorded again
    expect(await stored.lastModifiedOrder(RECORDED, true)).toBeDefined();
    // That recording was made a minute ahead of the clocks that write: the next tests must not see it.
    await dynamoDb.send(new DeleteCommand({ TableName: tableName, Key: lastModifiedOrderKey(RECORDED, true) }));
  });

  it(`more than ${MAX_CHANGES_SINCE_RECORDING} changes since the recording: the page passes over the offset again, and records — but not again within a minute`, async () => {
    const passesOver = (calls: string[]) => calls.filter((call) => call === 'QueryCommand').length >= 3; // changes, tombstones, the pass
    for (const round of [1, 2]) {
      await updateSome(RECORDED, (await all(RECORDED)).slice(0, MAX_CHANGES_SINCE_RECORDING + 1));
      for (const direction of ['asc', 'desc']) {
        const { observed } = await both(RECORDED, deep(direction, 210));
        expect(passesOver(observed.calls)).toBe(true);
        // The first round recorded (or found a recording of the last minute); that one stopped serving at once.
        if (round === 2) expect(observed.calls).not.toContain('PutItemCommand');
      }
    }
  });

  it('a recording that cannot be stored (a throttled or refused write) does not fail the page; the function keeps it in memory', async () => {
    const DENIED = 'lastmod-recorded-denied';
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let index = worker; index < 240; index += 8) await store.create(DENIED, { objectTypeProperty: draftExample.objectTypeProperty });
      }),
    );
    class ReadOnlyStore extends PassCountingStore {
      override async recordLastModifiedOrder(): Promise<void> {
        throw Object.assign(new Error('User is not authorized to perform: dynamodb:PutItem'), { name: 'AccessDeniedException' });
      }
    }
    const readOnly = new ReadOnlyStore(dynamoDb, tableName, LAST_MODIFIED_INDEX_NAME);
    const service = new ResourceQueryService(readOnly, new QueryBudget(10_000), Date.now, 0);
    for (const direction of ['asc', 'desc']) {
      for (const offset of [210, 225]) {
        const search = parametersOf(deep(direction, offset));
        expect((await service.query(DENIED, search)).results).toEqual((await evaluator.query(DENIED, search)).results);
      }
    }
    // One pass per direction: the second page of each starts from the recording kept in memory.
    expect(readOnly.passes).toBe(2);
    expect(await readOnly.lastModifiedOrder(DENIED, false)).toBeUndefined();
  });

  it('a deep page that starts inside a group of equal lastModifiedAt: the group is read whole and ordered by id', async () => {
    const GROUPED = 'lastmod-recorded-ties';
    let calls = 0;
    // Groups of 7 resources written in one millisecond, long ago.
    const grouped = new DynamoDbResourceStore(dynamoDb, tableName, () => new Date(Date.UTC(2026, 0, 1) + Math.floor(calls++ / 7)).toISOString());
    for (let index = 0; index < 260; index++) await grouped.create(GROUPED, { objectTypeProperty: draftExample.objectTypeProperty });
    for (const direction of ['asc', 'desc']) {
      for (const offset of [203, 203, 210, 217, 240]) await both(GROUPED, `sort=lastModifiedAt ${direction}&limit=5&offset=${offset}&withTotal=false`);
    }
  });
});

describe('the index is eventually consistent, the answer is not stale', () => {
  /** Runs `during` once, right after the next index Query answered and before its resources are read. */
  const betweenIndexAndRead = async (during: (entries: Record<string, unknown>[]) => Promise<void>, request: () => Promise<unknown>) => {
    const dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
    let armed = true;
    const name = 'updateBetweenIndexAndRead';
    dynamoDb.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        const input = args.input as { IndexName?: string };
        if (armed && input.IndexName === LAST_MODIFIED_INDEX_NAME) {
          armed = false;
          // The test's own writes, not the function's (whose grants local mode holds it to).
          await outsideFunctions(() => during((result.output as { Items: Record<string, unknown>[] }).Items));
        }
        return result;
      },
      { step: 'initialize', name },
    );
    try {
      return await request();
    } finally {
      dynamoDb.middlewareStack.remove(name);
    }
  };
  const idOf = (entry: Record<string, unknown>) => String(entry.sk).replace(/^RESOURCE#/, '');

  it('a resource updated after the index was read is left out of that page, never returned stale or misplaced; the next page has it first', async () => {
    let moved: Resource | undefined;
    const observed = (await betweenIndexAndRead(async (entries) => {
      const [current] = await queries.getMany(SMALL, [idOf(entries[1]!)]);
      moved = await store.update(SMALL, current!.id, current!.version, { someProperty: `moved-${Date.now()}` });
    }, () => gateway.send('GET', `/${SMALL}/resource?sort=lastModifiedAt desc&limit=5&withTotal=false`))) as Awaited<ReturnType<InProcessGateway['send']>>;
    const results: Resource[] = body(observed).results;
    expect(results).toHaveLength(5);
    expect(idsOf(results)).not.toContain(moved!.id);
    // Every resource returned is as it is now.
    const current = new Map((await queries.getMany(SMALL, idsOf(results))).map((resource) => [resource.id, resource]));
    for (const resource of results) expect(resource).toEqual(current.get(resource.id));
    const after = body(await gateway.send('GET', `/${SMALL}/resource?sort=lastModifiedAt desc&limit=5&withTotal=false`));
    expect(after.results[0]).toEqual(moved);
  });

  it('a deep offset counts index entries as they are: one updated within the index lag still counts at its old place', async () => {
    const search = 'sort=lastModifiedAt asc&limit=5&offset=20&withTotal=false';
    const before = (await evaluator.query(SMALL, parametersOf(search))).results;
    let moved: Resource | undefined;
    // The update lands after the pass over the offset read the index, before the page is read: as
    // if the index had not yet seen it. Its old entry was counted among the 20 passed over.
    const observed = (await betweenIndexAndRead(async (entries) => {
      // The 20 entries passed over, and the next one (is the page inside a group of equal instants?).
      expect(entries).toHaveLength(21);
      const [current] = await queries.getMany(SMALL, [idOf(entries[3]!)]);
      moved = await store.update(SMALL, current!.id, current!.version, { someProperty: `moved-${Date.now()}` });
    }, () => gateway.send('GET', `/${SMALL}/resource?${search}`))) as Awaited<ReturnType<InProcessGateway['send']>>;
    // The page is the one that followed those 20 entries: the positions of before the update.
    expect(body(observed).results).toEqual(before);
    // Now that the index has it, the same page is one further on (the moved resource is last).
    const after = (await evaluator.query(SMALL, parametersOf(search))).results;
    expect(idsOf(after)).not.toEqual(idsOf(before));
    expect(body(await gateway.send('GET', `/${SMALL}/resource?${search}`)).results).toEqual(after);
    expect(idsOf(after)).not.toContain(moved!.id);
  });

  it('a range alone in id order: a resource that left the range after its id was read is not returned', async () => {
    const newest = (await evaluator.query(SMALL, parametersOf('sort=lastModifiedAt desc&limit=30&withTotal=false'))).results;
    const [from, to] = [newest[29]!.lastModifiedAt, newest[0]!.lastModifiedAt];
    const range = where(`lastModifiedAt >= "${from}" and lastModifiedAt <= "${to}"`);
    const firstInIdOrder = idsOf(newest).sort()[0]!;
    let moved: Resource | undefined;
    const observed = (await betweenIndexAndRead(async () => {
      const [current] = await queries.getMany(SMALL, [firstInIdOrder]);
      moved = await store.update(SMALL, current!.id, current!.version, { someProperty: `left-the-range-${Date.now()}` });
    }, () => gateway.send('GET', `/${SMALL}/resource?${range}&limit=5&withTotal=false`))) as Awaited<ReturnType<InProcessGateway['send']>>;
    const answer = body(observed);
    expect(answer.count).toBe(5);
    expect(idsOf(answer.results)).not.toContain(moved!.id);
    expect(idsOf(answer.results)).toEqual(idsOf(answer.results).sort());
    for (const resource of answer.results as Resource[]) expect(resource.lastModifiedAt >= from && resource.lastModifiedAt <= to).toBe(true);
  });

  it('a resource whose lastModifiedAt left the range meanwhile is dropped: the predicate holds for what comes back', async () => {
    const newest = (await evaluator.query(SMALL, parametersOf('sort=lastModifiedAt desc&limit=30&withTotal=false'))).results;
    const to = newest[0]!.lastModifiedAt;
    const from = newest[29]!.lastModifiedAt;
    let moved: Resource | undefined;
    const observed = (await betweenIndexAndRead(async (entries) => {
      const [current] = await queries.getMany(SMALL, [idOf(entries[2]!)]);
      moved = await store.update(SMALL, current!.id, current!.version, { someProperty: `out-of-range-${Date.now()}` });
    }, () => gateway.send('GET', `/${SMALL}/resource?${where(`lastModifiedAt >= "${from}" and lastModifiedAt <= "${to}"`)}&sort=lastModifiedAt asc&limit=50`))) as Awaited<
      ReturnType<InProcessGateway['send']>
    >;
    const answer = body(observed);
    expect(moved!.lastModifiedAt > to).toBe(true);
    expect(idsOf(answer.results)).not.toContain(moved!.id);
    for (const resource of answer.results as Resource[]) expect(resource.lastModifiedAt >= from && resource.lastModifiedAt <= to).toBe(true);
    expect(answer.total).toBe(answer.results.length);
  });
});
