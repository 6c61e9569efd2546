import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideFunctions } from '../../local/table-access';
import { QueryBudget } from '../../shared/domain/query';
import { QueryParameters } from '../../shared/domain/query-parameters';
import type { Resource } from '../../shared/domain/resource';
import { ResourceQueryService } from '../../shared/services/query-service';
import { DynamoDbResourceQueryStore } from '../../shared/store/dynamodb/resource-query-store';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { LAST_MODIFIED_INDEX_NAME } from '../../shared/store/dynamodb/table-schema';
import { draftExample } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';
import { untilSearchable } from './search-index-caught-up';

/**
 * The lastModifiedAt index (in the default deployment and local mode): sorts and ranges on
 * lastModifiedAt read about a page from it, whatever the project's size, and answer what the
 * evaluator answers without it (a store told there is no index, as `-c lastModifiedIndex=false`).
 * Read units are DynamoDB's own ConsumedCapacity; the budget is set below the large project's
 * size, so only the index can answer there.
 */
const SMALL = 'lastmod-small';
const LARGE = 'lastmod-large';
const TIES = 'lastmod-ties';
const SIZES = { [SMALL]: 60, [LARGE]: 600 } as const;
const BUDGET_ITEMS = 300;
let gateway: InProcessGateway;
let store: DynamoDbResourceStore;
/** The same queries without the index, on the evaluator path, with a budget that fits the project. */
let evaluator: ResourceQueryService;

beforeAll(async () => {
  gateway = await startInProcessGateway({ QUERY_BUDGET_ITEMS: String(BUDGET_ITEMS) });
  const dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
  store = new DynamoDbResourceStore(dynamoDb, process.env.TABLE_NAME!);
  evaluator = new ResourceQueryService(new DynamoDbResourceQueryStore(dynamoDb, process.env.TABLE_NAME!), new QueryBudget(10_000));
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

  it('deep offsets read the index entries and their resources and pass over them: the evaluator\'s answer, within the budget', async () => {
    for (const direction of ['asc', 'desc']) {
      for (const offset of [1, 40, 200]) {
        const { observed } = await both(LARGE, `sort=lastModifiedAt ${direction}&limit=20&offset=${offset}&withTotal=false`);
        expect(body(observed).offset).toBe(offset);
        // One index read of the offset and the page, their resources a unit each.
        expect(observed.calls[0]).toBe('QueryCommand');
        expect(observed.readUnits).toBeLessThanOrEqual(offset + 25);
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

  it('a deep offset within a lastModifiedAt range: the evaluator\'s answer, reading the range only', async () => {
    const byModification = [...(await all(LARGE))].sort((a, b) => a.lastModifiedAt.localeCompare(b.lastModifiedAt));
    const range = `lastModifiedAt > "${byModification[100]!.lastModifiedAt}" and lastModifiedAt < "${byModification[400]!.lastModifiedAt}"`;
    for (const direction of ['asc', 'desc']) {
      const { observed } = await both(LARGE, `${where(range)}&sort=lastModifiedAt ${direction}&limit=20&offset=150&withTotal=false`);
      expect(observed.readUnits).toBeLessThanOrEqual(150 + 30);
    }
    await both(LARGE, `${where(`${range} and version = 1`)}&sort=lastModifiedAt asc&limit=20&offset=150&withTotal=false`);
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

  it('a lastModifiedAt range alone, its page in id order: the range\'s index entries, then about a page of its resources', async () => {
    const rest = (await evaluator.query(LARGE, parametersOf('limit=500&offset=500&withTotal=false'))).results;
    const byModification = [...(await all(LARGE)), ...rest].sort((a, b) => a.lastModifiedAt.localeCompare(b.lastModifiedAt));
    const [from, to] = [uniqueInstantNear(byModification, 340, 1), uniqueInstantNear(byModification, 470, -1)];
    const inRange = `lastModifiedAt > "${from}" and lastModifiedAt < "${to}"`;
    const { total } = await evaluator.query(LARGE, parametersOf(`${where(inRange)}&limit=1`));
    expect(total).toBeGreaterThan(100);
    // Updated and never-updated resources alike (every third one was updated in another order).
    const expected = byModification.filter((resource) => resource.lastModifiedAt > from && resource.lastModifiedAt < to);
    expect(expected.some((resource) => resource.version > 1) && expected.some((resource) => resource.version === 1)).toBe(true);
    const page = await both(LARGE, `${where(inRange)}&limit=5&offset=3&withTotal=false`);
    expect(idsOf(body(page.observed).results)).toEqual(idsOf(expected).sort().slice(3, 8));
    // One Query of the range's small entries, then one BatchGetItem of offset + limit + 2 resources, a unit each.
    expect(page.observed.calls).toEqual(['QueryCommand', 'BatchGetItemCommand']);
    expect(page.observed.readUnits).toBeLessThanOrEqual(3 + 10);
    const desc = await both(LARGE, `${where(inRange)}&sort=id desc&limit=20&withTotal=false`);
    expect(idsOf(body(desc.observed).results)).toEqual(idsOf(expected).sort().reverse().slice(0, 20));
    expect(desc.observed.readUnits).toBeLessThanOrEqual(3 + 22);
    // Past the first page: the next chunk of ids, twice as large, as the page needs it.
    const deeper = await both(LARGE, `${where(inRange)}&limit=20&offset=30&withTotal=false`);
    expect(deeper.observed.readUnits).toBeLessThanOrEqual(3 + 52 + 104);
    const fewer = await both(LARGE, `${where(`${inRange} and objectTypeProperty(arrayOfIntExample contains 3)`)}&limit=5&withTotal=false`);
    expect(body(fewer.observed).count).toBe(5);
  });

  it('search with filter.query=lastModifiedAt:range(…): the range, its facets and total exact', async () => {
    await untilSearchable(async () => body(await gateway.send('GET', `/${LARGE}/resource/searchApiPattern?limit=1`)).total, SIZES[LARGE]);
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
    // The page's resources only (a unit each), not the project's.
    expect(observed.readUnits).toBeLessThanOrEqual(inRange.length);
    expect(observed.calls).toEqual(['BatchGetItemCommand']);
  });

  it('without a narrowing range, a filtered total reads the project the usual way (over the budget here: 400 QueryTimedOut)', async () => {
    const unfiltered = await gateway.send('GET', `/${LARGE}/resource?sort=lastModifiedAt desc&limit=20`);
    expect(body(unfiltered)).toMatchObject({ count: 20, total: SIZES[LARGE] });
    const observed = await gateway.send('GET', `/${LARGE}/resource?sort=lastModifiedAt desc&limit=20&${where('version >= 1')}`);
    expect(observed.answer.statusCode).toBe(400);
    expect(body(observed).errors[0].code).toBe('QueryTimedOut');
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
      const current = await store.get(SMALL, idOf(entries[1]!));
      moved = await store.update(SMALL, current!.id, current!.version, { someProperty: `moved-${Date.now()}` });
    }, () => gateway.send('GET', `/${SMALL}/resource?sort=lastModifiedAt desc&limit=5&withTotal=false`))) as Awaited<ReturnType<InProcessGateway['send']>>;
    const results: Resource[] = body(observed).results;
    expect(results).toHaveLength(5);
    expect(idsOf(results)).not.toContain(moved!.id);
    // Every resource returned is as it is now.
    for (const resource of results) expect(resource).toEqual(await store.get(SMALL, resource.id));
    const after = body(await gateway.send('GET', `/${SMALL}/resource?sort=lastModifiedAt desc&limit=5&withTotal=false`));
    expect(after.results[0]).toEqual(moved);
  });

  it('a deep offset with a resource updated while it is read: the page of the order as it is now', async () => {
    const search = 'sort=lastModifiedAt asc&limit=5&offset=20&withTotal=false';
    let moved: Resource | undefined;
    // The update lands after the index was read, before the resources are: its entry there is out
    // of date and left out, as the index will leave it out once it has the update.
    const observed = (await betweenIndexAndRead(async (entries) => {
      const current = await store.get(SMALL, idOf(entries[3]!));
      moved = await store.update(SMALL, current!.id, current!.version, { someProperty: `moved-${Date.now()}` });
    }, () => gateway.send('GET', `/${SMALL}/resource?${search}`))) as Awaited<ReturnType<InProcessGateway['send']>>;
    const now = (await evaluator.query(SMALL, parametersOf(search))).results;
    expect(body(observed).results).toEqual(now);
    expect(idsOf(now)).not.toContain(moved!.id);
  });

  it('a range alone in id order: a resource that left the range after its id was read is not returned', async () => {
    const newest = (await evaluator.query(SMALL, parametersOf('sort=lastModifiedAt desc&limit=30&withTotal=false'))).results;
    const [from, to] = [newest[29]!.lastModifiedAt, newest[0]!.lastModifiedAt];
    const range = where(`lastModifiedAt >= "${from}" and lastModifiedAt <= "${to}"`);
    const firstInIdOrder = idsOf(newest).sort()[0]!;
    let moved: Resource | undefined;
    const observed = (await betweenIndexAndRead(async () => {
      const current = await store.get(SMALL, firstInIdOrder);
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
      const current = await store.get(SMALL, idOf(entries[2]!));
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
