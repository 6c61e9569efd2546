import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '../../shared/domain/resource';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { draftExample } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';
import { untilSearchable } from './search-index-caught-up';

/**
 * Queries an index can answer read about one page whatever the project's size: read units are
 * DynamoDB's own ConsumedCapacity, counted per request. A full read of this project costs about
 * PROJECT_SIZE × 0.6 KB / 4 KB ≈ 90 units, so "a few units" is the index at work. Everything else
 * keeps its exact semantics within a budget (set small here), past which it is 400 QueryTimedOut.
 * Search asks the search engine, and reads from the table only the page it answers.
 */
const PROJECT = 'scale';
const TIES = 'scale-ties';
const PROJECT_SIZE = 600;
const BUDGET_ITEMS = 300;
let gateway: InProcessGateway;
let store: DynamoDbResourceStore;
let seeded: Resource[] = [];

/** The reference order of `sort=createdAt asc`: createdAt, then id (commercetools' tiebreak). */
const byCreation = (a: Resource, b: Resource) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byCreationDesc = (a: Resource, b: Resource) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const objectTypeProperty = (index: number) => ({
  ...draftExample.objectTypeProperty,
  arrayOfIntExample: [index % 7, 1000 + index],
  arrayOfStringExample: [`word-${index}`],
});

beforeAll(async () => {
  gateway = await startInProcessGateway({ QUERY_BUDGET_ITEMS: String(BUDGET_ITEMS) });
  const dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
  store = new DynamoDbResourceStore(dynamoDb, process.env.TABLE_NAME!);
  let next = 0;
  const created: Resource[] = [];
  // Concurrent creates: many share a millisecond, which the id tiebreak must order.
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < PROJECT_SIZE) {
        const index = next++;
        created.push(await store.create(PROJECT, { key: `s-${String(index).padStart(3, '0')}`, objectTypeProperty: objectTypeProperty(index) }));
      }
    }),
  );
  seeded = created.sort(byCreation);
}, 120_000);

afterAll(() => gateway?.stop());

const body = (observed: { answer: { body?: unknown } }) => JSON.parse(observed.answer.body as string);
const query = (path: string) => gateway.send('GET', `/${PROJECT}/resource${path}`);
const where = (predicate: string) => `where=${encodeURIComponent(predicate)}`;
const idsOf = (resources: { id: string }[]) => resources.map((resource) => resource.id);

describe('index-answerable queries read about one page (GET and HEAD /{projectKey}/resource, GET …/sorted-query-parameters)', () => {
  it('key = …: the key sentinel and the resource, about 2 read units, with an exact total', async () => {
    const observed = await query(`?${where('key = "s-123"')}`);
    expect(observed.answer.statusCode).toBe(200);
    expect(body(observed)).toMatchObject({ count: 1, total: 1, results: [{ key: 's-123' }] });
    expect(observed.calls).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
    expect(observed.readUnits).toBeLessThanOrEqual(2);
  });

  it('key in (…) with another conjunct: the other conjunct is evaluated on those resources only', async () => {
    const keys = ['s-001', 's-002', 's-007', 's-014', 'missing'];
    const observed = await query(`?${where(`key in (${keys.map((key) => `"${key}"`).join(', ')}) and objectTypeProperty(arrayOfIntExample contains 0)`)}&sort=key asc`);
    expect(body(observed).results.map((resource: Resource) => resource.key)).toEqual(['s-007', 's-014']);
    expect(body(observed).total).toBe(2);
    expect(observed.readUnits).toBeLessThanOrEqual(keys.length * 2);
  });

  it('id = … and id in (…): one BatchGetItem', async () => {
    const wanted = [seeded[5]!, seeded[250]!, seeded[PROJECT_SIZE - 1]!];
    const observed = await query(`?${where(`id in (${wanted.map((resource) => `"${resource.id}"`).join(', ')})`)}&withTotal=false`);
    expect(idsOf(body(observed).results)).toEqual(idsOf(wanted).sort());
    expect(observed.calls).toEqual(['BatchGetItemCommand']);
    expect(observed.readUnits).toBeLessThanOrEqual(wanted.length);
    const single = await query(`?${where(`id = "${seeded[7]!.id}"`)}`);
    expect(body(single)).toMatchObject({ count: 1, total: 1, results: [{ id: seeded[7]!.id }] });
  });

  it('sort=createdAt desc and asc, limit 20, at offsets: the reference order, about a page of reads', async () => {
    const descending = [...seeded].sort(byCreationDesc);
    for (const offset of [0, 100]) {
      const desc = await query(`?sort=createdAt desc&limit=20&offset=${offset}&withTotal=false`);
      expect(idsOf(body(desc).results)).toEqual(idsOf(descending.slice(offset, offset + 20)));
      const asc = await query(`?sort=createdAt asc&limit=20&offset=${offset}&withTotal=false`);
      expect(idsOf(body(asc).results)).toEqual(idsOf(seeded.slice(offset, offset + 20)));
      // One Query of offset + 22 items of about 0.6 KB.
      expect(desc.readUnits).toBeLessThanOrEqual(1 + Math.ceil(((offset + 22) * 0.6) / 4));
      expect(asc.calls).toEqual(['QueryCommand']);
    }
  });

  it('deep offsets are read and passed over, one Query whose cost grows with the offset; past the budget, 400 QueryTimedOut', async () => {
    const descending = [...seeded].sort(byCreationDesc);
    const byId = [...seeded].sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const offset of [150, 260]) {
      const desc = await query(`?sort=createdAt desc&limit=20&offset=${offset}&withTotal=false`);
      expect(body(desc)).toMatchObject({ offset, limit: 20, count: 20 });
      expect(idsOf(body(desc).results)).toEqual(idsOf(descending.slice(offset, offset + 20)));
      const asc = await query(`?sort=createdAt asc&limit=20&offset=${offset}&withTotal=false`);
      expect(idsOf(body(asc).results)).toEqual(idsOf(seeded.slice(offset, offset + 20)));
      const unsorted = await query(`?limit=20&offset=${offset}`);
      expect(body(unsorted)).toMatchObject({ total: PROJECT_SIZE });
      expect(idsOf(body(unsorted).results)).toEqual(idsOf(byId.slice(offset, offset + 20)));
      for (const observed of [desc, asc]) expect(observed.calls).toEqual(['QueryCommand']);
      expect(desc.readUnits).toBeLessThanOrEqual(1 + Math.ceil(((offset + 22) * 0.6) / 4));
    }
    // The budget (300 resources here, 20,000 by default: offset 10,000 fits) bounds what an offset may read.
    const past = await query('?sort=createdAt asc&limit=20&offset=500&withTotal=false');
    expect(past.answer.statusCode).toBe(400);
    expect(body(past).errors[0].code).toBe('QueryTimedOut');
  });

  it('a cursor page (sort=id asc, id > last id, withTotal=false) reads one page of the id range at any depth', async () => {
    const byId = [...seeded].sort((a, b) => (a.id < b.id ? -1 : 1));
    const walked: string[] = [];
    let last: string | undefined;
    for (;;) {
      const cursor = last === undefined ? '' : `&${where(`id > "${last}"`)}`;
      const observed = await query(`?sort=id asc&limit=100&withTotal=false${cursor}`);
      expect(observed.calls).toEqual(['QueryCommand']);
      // About a page, however deep: 102 items of ≈ 0.6 KB.
      expect(observed.readUnits).toBeLessThanOrEqual(1 + Math.ceil((102 * 0.6) / 4));
      const results: Resource[] = body(observed).results;
      walked.push(...idsOf(results));
      if (results.length < 100) break;
      last = results.at(-1)!.id;
    }
    expect(walked).toEqual(idsOf(byId));
  });

  it('a deep offset whose page starts inside a millisecond shared by several resources: the group is read whole and ordered by id', async () => {
    // Groups of 7 resources created in one millisecond: in createdAt desc order the store reads a
    // group in descending id order, the answer wants it by ascending id.
    let calls = 0;
    const grouped = new DynamoDbResourceStore((await import('../../shared/composition-root')).dynamoDb(), process.env.TABLE_NAME!, () =>
      new Date(Date.UTC(2026, 0, 1) + Math.floor(calls++ / 7)).toISOString(),
    );
    const created: Resource[] = [];
    for (let index = 0; index < 280; index++) created.push(await grouped.create(TIES, { objectTypeProperty: objectTypeProperty(index) }));
    const ascending = created.sort(byCreation);
    for (const [direction, order] of [['desc', [...ascending].sort(byCreationDesc)], ['asc', ascending]] as const) {
      for (const offset of [0, 1, 6, 7, 200, 205, 250, 277]) {
        const observed = await gateway.send('GET', `/${TIES}/resource?sort=createdAt ${direction}&limit=5&offset=${offset}&withTotal=false`);
        expect(idsOf(body(observed).results)).toEqual(idsOf(order.slice(offset, offset + 5)));
      }
    }
  });

  it('a deep offset within createdAt ranges: the range is read from its start, the predicate decides at the bound', async () => {
    // An exclusive bound in the middle of a millisecond's group: the store range is wider, the predicate decides.
    const from = seeded[300]!.createdAt;
    const inRange = seeded.filter((resource) => resource.createdAt > from);
    const ranged = await query(`?${where(`createdAt > "${from}"`)}&sort=createdAt asc&limit=20&offset=200&withTotal=false`);
    expect(idsOf(body(ranged).results)).toEqual(idsOf(inRange.slice(200, 220)));
    const descending = body(await query(`?${where(`createdAt > "${from}"`)}&sort=createdAt desc&limit=20&offset=150&withTotal=false`));
    expect(idsOf(descending.results)).toEqual(idsOf([...inRange].sort(byCreationDesc).slice(150, 170)));
    const filtered = await query(`?${where(`createdAt > "${from}" and version = 1`)}&sort=createdAt asc&limit=20&offset=150&withTotal=false`);
    expect(idsOf(body(filtered).results)).toEqual(idsOf(inRange.slice(150, 170)));
  });

  it('createdAt ranges, alone or with a sort: the reference answer, reading only the range', async () => {
    const from = seeded[PROJECT_SIZE - 200]!.createdAt;
    const to = seeded[PROJECT_SIZE - 160]!.createdAt;
    const expected = seeded.filter((resource) => resource.createdAt >= from && resource.createdAt < to);
    const observed = await query(`?${where(`createdAt >= "${from}" and createdAt < "${to}"`)}&sort=createdAt asc&limit=100&withTotal=false`);
    expect(idsOf(body(observed).results)).toEqual(idsOf(expected));
    expect(observed.readUnits).toBeLessThanOrEqual(2 + Math.ceil(((expected.length + 41) * 0.6) / 4));
    const withTotal = await query(`?${where(`createdAt >= "${from}"`)}&limit=5`);
    expect(body(withTotal).total).toBe(seeded.filter((resource) => resource.createdAt >= from).length);
  });

  it('withTotal on an unfiltered query reads the counter, not the project', async () => {
    const observed = await query('?limit=20');
    expect(body(observed)).toMatchObject({ count: 20, total: PROJECT_SIZE });
    expect(idsOf(body(observed).results)).toEqual(idsOf([...seeded].sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, 20)));
    expect(observed.readUnits).toBeLessThanOrEqual(6);
  });

  it('HEAD with a key or id predicate reads the named resources only', async () => {
    const byKey = await gateway.send('HEAD', `/${PROJECT}/resource?${where('key = "s-042"')}`);
    expect(byKey.answer.statusCode).toBe(200);
    expect(byKey.readUnits).toBeLessThanOrEqual(2);
    const missing = await gateway.send('HEAD', `/${PROJECT}/resource?${where(`id = "${randomUUID()}"`)}`);
    expect(missing.answer.statusCode).toBe(404);
  });

  it('is strongly consistent: a resource just created is on the first page of sort=createdAt desc, and in the total', async () => {
    const before = body(await query('?limit=1')).total;
    const created = body(await gateway.send('POST', `/${PROJECT}/resource`, { objectTypeProperty: objectTypeProperty(7) }));
    const newest = body(await query('?sort=createdAt desc&limit=1'));
    expect(newest.results[0].id).toBe(created.id);
    expect(newest.total).toBe(before + 1);
    await gateway.send('DELETE', `/${PROJECT}/resource/${created.id}`);
    expect(body(await query('?limit=1')).total).toBe(before);
  });
});

describe('queries no index answers: exact within the budget, else 400 QueryTimedOut', () => {
  it('a predicate on objectTypeProperty over more resources than the budget is 400 QueryTimedOut, saying what to do', async () => {
    const observed = await query(`?${where('objectTypeProperty(arrayOfIntExample contains 3)')}`);
    expect(observed.answer.statusCode).toBe(400);
    const error = body(observed);
    expect(error).toMatchObject({ statusCode: 400, errors: [{ code: 'QueryTimedOut' }] });
    expect(error.message).toMatch(/withTotal=false/);
    expect(error.message).toMatch(/createdAt/);
  });

  it('the same predicate within an index range is answered exactly', async () => {
    const from = seeded[PROJECT_SIZE - 100]!.createdAt;
    const observed = await query(`?${where(`createdAt >= "${from}" and objectTypeProperty(arrayOfIntExample contains 3)`)}&limit=100`);
    expect(observed.answer.statusCode).toBe(200);
    const expected = seeded.filter((resource) => resource.createdAt >= from && (resource.objectTypeProperty.arrayOfIntExample ?? []).includes(3));
    expect(body(observed).total).toBe(expected.length);
    expect(idsOf(body(observed).results).sort()).toEqual(idsOf(expected).sort());
  });

  it('other sorts and HEAD past the budget are 400 too, never a 5xx', async () => {
    const sorted = await query('?sort=key desc&limit=5');
    expect(sorted.answer.statusCode).toBe(400);
    const head = await gateway.send('HEAD', `/${PROJECT}/resource?${where('objectTypeProperty(arrayOfIntExample contains 99999)')}`);
    expect(head.answer.statusCode).toBe(400);
  });
});

describe('search reads from the table only the page the engine answers (GET /{projectKey}/resource/searchApiPattern)', () => {
  const search = (parameters: string) => gateway.send('GET', `/${PROJECT}/resource/searchApiPattern?${parameters}`);
  const filterQuery = (expression: string) => `filter.query=${encodeURIComponent(expression)}`;
  const intsOf = (resource: Resource) => resource.objectTypeProperty.arrayOfIntExample ?? [];

  beforeAll(() => untilSearchable(async () => body(await search('limit=1')).total, PROJECT_SIZE));

  it('text over the whole project, past the query budget: the total, and only the page read', async () => {
    const observed = await search('text.en=word&limit=10');
    expect(observed.answer.statusCode).toBe(200);
    expect(body(observed)).toMatchObject({ total: PROJECT_SIZE, count: 10 });
    expect(observed.calls).toEqual(['BatchGetItemCommand']);
  });

  it('a createdAt range: results, total and facets exactly as over the whole project', async () => {
    const from = seeded[PROJECT_SIZE - 100]!.createdAt;
    const observed = await search(
      `${filterQuery(`createdAt:range("${from}" to *)`)}&filter=${encodeURIComponent('objectTypeProperty.arrayOfIntExample:3')}` +
        `&facet=${encodeURIComponent('objectTypeProperty.arrayOfIntExample:range(0 to 7)')}&limit=100`,
    );
    expect(observed.answer.statusCode).toBe(200);
    const inRange = seeded.filter((resource) => resource.createdAt >= from);
    const expected = inRange.filter((resource) => intsOf(resource).includes(3));
    expect(body(observed).total).toBe(expected.length);
    expect(idsOf(body(observed).results)).toEqual(idsOf(expected).sort());
    // `filter` restricts the results only: the facet counts the range (facet ranges leave out their upper end).
    const facet = body(observed).facets['objectTypeProperty.arrayOfIntExample:range(0 to 7)'];
    expect(facet.ranges[0].count).toBe(inRange.filter((resource) => intsOf(resource).some((value) => value >= 0 && value < 7)).length);
    expect(observed.calls).toEqual(['BatchGetItemCommand']);
  });

  it('named ids or keys: only those resources, whatever else is asked', async () => {
    const wanted = [seeded[5]!, seeded[250]!, seeded[PROJECT_SIZE - 1]!];
    const byId = await search(`${filterQuery(`id:${wanted.map((resource) => `"${resource.id}"`).join(',')}`)}&facet=${encodeURIComponent('key')}`);
    expect(body(byId)).toMatchObject({ total: 3 });
    expect(idsOf(body(byId).results)).toEqual(idsOf(wanted).sort());
    const byKey = await search(`${filterQuery('key:"s-001","s-002","missing"')}&${filterQuery('key:"s-002","s-003"')}`);
    expect(body(byKey).results.map((resource: Resource) => resource.key)).toEqual(['s-002']);
  });

  it('a page sorted by createdAt desc reads that page', async () => {
    const observed = await search('sort=createdAt desc&limit=5&withTotal=false');
    expect(observed.answer.statusCode).toBe(200);
    expect(idsOf(body(observed).results)).toEqual(idsOf([...seeded].sort(byCreationDesc).slice(0, 5)));
    expect(observed.readUnits).toBeLessThanOrEqual(4);
  });

  it('a date alone bounds createdAt as its text sorts (before that day); nothing found reads nothing', async () => {
    const observed = await search(`${filterQuery('createdAt:range(* to "2000-01-01")')}&facet=key`);
    expect(observed.answer.statusCode).toBe(200);
    expect(body(observed)).toMatchObject({ total: 0, results: [] });
    expect(observed.calls).toEqual([]);
  });
});
