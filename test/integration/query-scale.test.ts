import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryBudget } from '../../shared/domain/query';
import { QueryParameters } from '../../shared/domain/query-parameters';
import type { Resource } from '../../shared/domain/resource';
import { ResourceQueryService } from '../../shared/services/query-service';
import { DynamoDbResourceQueryStore } from '../../shared/store/dynamodb/resource-query-store';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { projectPartition, resourceKey, TOMBSTONE_PREFIX, TOMBSTONE_RANGE_END } from '../../shared/store/dynamodb/keys';
import { draftExample } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * Queries an index can answer read about one page whatever the project's size: read units are
 * DynamoDB's own ConsumedCapacity, counted per request. A full read of this project costs about
 * PROJECT_SIZE × 0.6 KB / 4 KB ≈ 90 units, so "a few units" is the index at work. Everything else
 * keeps its exact semantics within a budget (set small here), past which it is 400 QueryTimedOut.
 */
const PROJECT = 'scale';
const LEGACY = 'scale-legacy';
const TIES = 'scale-ties';
const PROJECT_SIZE = 600;
const BUDGET_ITEMS = 300;
let gateway: InProcessGateway;
let store: DynamoDbResourceStore;
let queries: DynamoDbResourceQueryStore;
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
  queries = new DynamoDbResourceQueryStore(dynamoDb, process.env.TABLE_NAME!);
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
      // The counters (1 unit) and offset + 21 items of about 0.6 KB.
      expect(desc.readUnits).toBeLessThanOrEqual(2 + Math.ceil(((offset + 21) * 0.6) / 4));
      expect(asc.calls).toEqual(['QueryCommand', 'QueryCommand']);
    }
  });

  it('deep offsets of sort=createdAt and id order pass over the offset reading keys only, then read the page', async () => {
    const descending = [...seeded].sort(byCreationDesc);
    const byId = [...seeded].sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const offset of [200, 500, 590, PROJECT_SIZE]) {
      const desc = await query(`?sort=createdAt desc&limit=20&offset=${offset}&withTotal=false`);
      expect(body(desc)).toMatchObject({ offset, limit: 20, count: descending.slice(offset, offset + 20).length });
      expect(idsOf(body(desc).results)).toEqual(idsOf(descending.slice(offset, offset + 20)));
      const asc = await query(`?sort=createdAt asc&limit=20&offset=${offset}&withTotal=false`);
      expect(idsOf(body(asc).results)).toEqual(idsOf(seeded.slice(offset, offset + 20)));
      // The counters and the position checkpoints (none: these resources are younger than a
      // minute), the keys-only pass over the offset, the page: no resource is re-read.
      const unsorted = await query(`?limit=20&offset=${offset}&withTotal=false`);
      expect(idsOf(body(unsorted).results)).toEqual(idsOf(byId.slice(offset, offset + 20)));
      for (const observed of [desc, asc, unsorted]) {
        expect([...observed.calls].sort()).toEqual(['GetItemCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand']);
      }
      // DynamoDB charges a keys-only Query by the size of the items it reads, as a full one: the
      // table's pass still costs about offset × 0.6 KB / 4 KB (docs/design.md).
      expect(desc.readUnits).toBeLessThanOrEqual(3 + Math.ceil(((offset + 21) * 0.6) / 4));
    }
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
      for (const offset of [200, 205, 250, 277]) {
        const observed = await gateway.send('GET', `/${TIES}/resource?sort=createdAt ${direction}&limit=5&offset=${offset}&withTotal=false`);
        expect(idsOf(body(observed).results)).toEqual(idsOf(order.slice(offset, offset + 5)));
      }
    }
  });

  it('a deep offset within createdAt ranges: the range conjuncts decide on the keys-only read; with other conjuncts the offset is read and evaluated', async () => {
    // An exclusive bound in the middle of a millisecond's group: the store range is wider, the predicate decides.
    const from = seeded[50]!.createdAt;
    const inRange = seeded.filter((resource) => resource.createdAt > from);
    const ranged = await query(`?${where(`createdAt > "${from}"`)}&sort=createdAt asc&limit=20&offset=300&withTotal=false`);
    expect(idsOf(body(ranged).results)).toEqual(idsOf(inRange.slice(300, 320)));
    // The counters, the pass (twice when resources share the bound's millisecond: it is in the
    // store range, not in the predicate, so the first read passes fewer than asked), the page.
    expect(ranged.calls.every((call) => call === 'QueryCommand')).toBe(true);
    expect(ranged.calls.length).toBeGreaterThanOrEqual(3);
    expect(ranged.calls.length).toBeLessThanOrEqual(4);
    const descending = body(await query(`?${where(`createdAt > "${from}"`)}&sort=createdAt desc&limit=20&offset=250&withTotal=false`));
    expect(idsOf(descending.results)).toEqual(idsOf([...inRange].sort(byCreationDesc).slice(250, 270)));
    const filtered = await query(`?${where(`createdAt > "${from}" and version = 1`)}&sort=createdAt asc&limit=20&offset=250&withTotal=false`);
    expect(idsOf(body(filtered).results)).toEqual(idsOf(inRange.slice(250, 270)));
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

  it('search, other sorts and HEAD past the budget are 400 too, never a 5xx', async () => {
    const search = await gateway.send('GET', `/${PROJECT}/resource/searchApiPattern?text.en=word`);
    expect(search.answer.statusCode).toBe(400);
    expect(body(search).errors[0].code).toBe('QueryTimedOut');
    // Search has no `where`: it is told what narrows a search.
    expect(body(search).message).toMatch(/filter\.query/);
    expect(body(search).message).not.toMatch(/page by id/);
    const sorted = await query('?sort=key desc&limit=5');
    expect(sorted.answer.statusCode).toBe(400);
    const head = await gateway.send('HEAD', `/${PROJECT}/resource?${where('objectTypeProperty(arrayOfIntExample contains 99999)')}`);
    expect(head.answer.statusCode).toBe(400);
  });
});

describe('search narrowed by filter.query reads only what it allows (GET /{projectKey}/resource/searchApiPattern)', () => {
  const search = (parameters: string) => gateway.send('GET', `/${PROJECT}/resource/searchApiPattern?${parameters}`);
  const filterQuery = (expression: string) => `filter.query=${encodeURIComponent(expression)}`;
  const intsOf = (resource: Resource) => resource.objectTypeProperty.arrayOfIntExample ?? [];

  it('a createdAt range: results, total and facets exactly as over the whole project, reading the range', async () => {
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
    // `filter` restricts the results only: the facet counts the whole range.
    // `filter` restricts the results only: the facet counts the range (facet ranges leave out their upper end).
    const facet = body(observed).facets['objectTypeProperty.arrayOfIntExample:range(0 to 7)'];
    expect(facet.ranges[0].count).toBe(inRange.filter((resource) => intsOf(resource).some((value) => value >= 0 && value < 7)).length);
    // The range (≥ 100 resources of ≈ 0.6 KB) and the counters: well below the project's ≈ 90 units.
    expect(observed.readUnits).toBeLessThanOrEqual(2 + Math.ceil((inRange.length * 0.6) / 4) + 4);
    expect(observed.calls.every((call) => call === 'QueryCommand')).toBe(true);
  });

  it('named ids or keys: only those resources, whatever else is asked', async () => {
    const wanted = [seeded[5]!, seeded[250]!, seeded[PROJECT_SIZE - 1]!];
    const byId = await search(`${filterQuery(`id:${wanted.map((resource) => `"${resource.id}"`).join(',')}`)}&facet=${encodeURIComponent('key')}`);
    expect(body(byId)).toMatchObject({ total: 3 });
    expect(idsOf(body(byId).results)).toEqual(idsOf(wanted).sort());
    expect(byId.calls).toEqual(['BatchGetItemCommand']);
    const byKey = await search(`${filterQuery('key:"s-001","s-002","missing"')}&${filterQuery('key:"s-002","s-003"')}`);
    expect(body(byKey).results.map((resource: Resource) => resource.key)).toEqual(['s-002']);
    expect(byKey.calls).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
  });

  it('a page in the store\'s order without total or facets ends once it is full', async () => {
    const observed = await search('sort=createdAt desc&limit=5&withTotal=false');
    expect(observed.answer.statusCode).toBe(200);
    expect(idsOf(body(observed).results)).toEqual(idsOf([...seeded].sort(byCreationDesc).slice(0, 5)));
    expect(observed.readUnits).toBeLessThanOrEqual(4);
  });

  it('a date alone bounds createdAt as its text sorts (before that day), and an empty range reads next to nothing', async () => {
    const observed = await search(`${filterQuery('createdAt:range(* to "2000-01-01")')}&facet=key`);
    expect(observed.answer.statusCode).toBe(200);
    expect(body(observed)).toMatchObject({ total: 0, results: [] });
    expect(observed.readUnits).toBeLessThanOrEqual(2);
  });
});

describe('a project with resources from before ordered ids and counters, after npm run migrate-query-index', () => {
  const legacy: Resource[] = [];

  beforeAll(async () => {
    const dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
    // Random (version 4) ids, created a day apart: id order is not creation order.
    for (let index = 0; index < 30; index++) {
      const at = new Date(Date.UTC(2024, 0, 1 + index)).toISOString();
      const resource: Resource = { id: randomUUID(), version: 1, createdAt: at, lastModifiedAt: at, objectTypeProperty: objectTypeProperty(index) };
      await dynamoDb.send(new PutCommand({ TableName: process.env.TABLE_NAME!, Item: { ...resourceKey(LEGACY, resource.id), type: 'resource', ...resource } }));
      legacy.push(resource);
    }
    // The migration, as an operator runs it, on this project.
    const endpoints = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8'));
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/migrate-query-index.ts', '--project', LEGACY, '--endpoint', endpoints.dynamoDbEndpoint, '--table', endpoints.tableName],
      { stdio: 'pipe' },
    );
    for (let index = 0; index < 5; index++) legacy.push(await store.create(LEGACY, { objectTypeProperty: objectTypeProperty(index) }));
    legacy.sort(byCreation);
  });

  it('sorts and ranges by createdAt correctly (the exact evaluator), and counts every resource', async () => {
    const desc = body(await gateway.send('GET', `/${LEGACY}/resource?sort=createdAt desc&limit=10`));
    expect(idsOf(desc.results)).toEqual(idsOf([...legacy].sort(byCreationDesc).slice(0, 10)));
    expect(desc.total).toBe(35);
    const from = legacy[10]!.createdAt;
    const ranged = body(await gateway.send('GET', `/${LEGACY}/resource?${where(`createdAt >= "${from}"`)}&sort=createdAt asc&limit=50`));
    expect(idsOf(ranged.results)).toEqual(idsOf(legacy.slice(10)));
  });
});

describe('position checkpoints: deep pages of the creation order start near their offset', () => {
  const CHECKPOINTED = 'scale-checkpoints';
  const SIZE = 750;
  let resources: Resource[] = [];
  const page = (path: string) => gateway.send('GET', `/${CHECKPOINTED}/resource${path}`);
  const byKeyDesc = (a: Resource, b: Resource) => a.createdAt.localeCompare(b.createdAt) || (a.key! < b.key! ? 1 : a.key! > b.key! ? -1 : 0);
  const orders = () => ({
    'sort=createdAt asc': [...resources].sort(byCreation),
    'sort=createdAt desc': [...resources].sort(byCreationDesc),
    'sort=createdAt asc&sort=key desc': [...resources].sort(byKeyDesc),
    'sort=id desc': [...resources].sort((a, b) => (a.id < b.id ? 1 : -1)),
    '': [...resources].sort((a, b) => (a.id < b.id ? -1 : 1)),
  });
  // The keys-only pass over an offset (ResourceQueryStore.skip) reads the keys and createdAt alone.
  const passes = (observed: { inputs: Record<string, unknown>[] }) =>
    observed.inputs.some((input) => input.ProjectionExpression === '#pk, #sk, #createdAt');

  beforeAll(async () => {
    // Created a year ago (checkpoints note only resources older than a minute), three to a
    // millisecond, with 150 in one millisecond in the middle: checkpoints fall on whole milliseconds.
    let calls = 0;
    const millisecond = (index: number) => (index < 300 ? Math.floor(index / 3) : index < 450 ? 100 : 101 + Math.floor((index - 450) / 3));
    const past = new DynamoDbResourceStore((await import('../../shared/composition-root')).dynamoDb(), process.env.TABLE_NAME!, () =>
      new Date(Date.UTC(2025, 10, 1) + millisecond(calls++)).toISOString(),
    );
    for (let index = 0; index < SIZE; index++) {
      resources.push(await past.create(CHECKPOINTED, { key: `c-${String((index * 7919) % 1000).padStart(3, '0')}`, objectTypeProperty: objectTypeProperty(index) }));
    }
  }, 120_000);

  it('the first deep page passes over its offset and notes checkpoints on whole milliseconds; the next reads about a page', async () => {
    const ascending = orders()['sort=createdAt asc'];
    const first = await page('?sort=createdAt asc&limit=20&offset=500&withTotal=false');
    expect(idsOf(body(first).results)).toEqual(idsOf(ascending.slice(500, 520)));
    expect(passes(first)).toBe(true);
    expect(first.calls).toContain('PutItemCommand');

    const recorded = (await queries.checkpoints(CHECKPOINTED))!;
    expect(recorded.deleted).toBe(0);
    expect(recorded.checkpoints.length).toBeGreaterThanOrEqual(3);
    for (const { position, id } of recorded.checkpoints) {
      expect(ascending[position - 1]!.id).toBe(id);
      expect(ascending[position]!.createdAt).not.toBe(ascending[position - 1]!.createdAt);
    }

    const again = await page('?sort=createdAt asc&limit=20&offset=500&withTotal=false');
    expect(idsOf(body(again).results)).toEqual(idsOf(ascending.slice(500, 520)));
    // The counters and the checkpoints side by side, then the page from the checkpoint: no pass, nothing written.
    expect(passes(again)).toBe(false);
    expect(again.calls.filter((call) => call !== 'QueryCommand')).toEqual(['GetItemCommand']);
    // Read units: a page whose last resource does not tie with the next (three to a millisecond),
    // so that one read completes it — the counters, the checkpoints, what is left of the offset and the page.
    const start = Math.max(...recorded.checkpoints.map(({ position }) => position).filter((position) => position <= 502));
    const measured = await page('?sort=createdAt asc&limit=20&offset=502&withTotal=false');
    expect(idsOf(body(measured).results)).toEqual(idsOf(ascending.slice(502, 522)));
    expect(measured.readUnits).toBeLessThanOrEqual(2 + Math.ceil(((502 - start + 21) * 0.6) / 4));
    // The SDK's default, withTotal=true: the same page, the total from the counters.
    const withTotal = await page('?sort=createdAt asc&limit=20&offset=502');
    expect(body(withTotal)).toMatchObject({ offset: 502, count: 20, total: SIZE });
    expect(idsOf(body(withTotal).results)).toEqual(idsOf(ascending.slice(502, 522)));
    expect(passes(withTotal)).toBe(false);

    // Counted from the end: the first descending page notes checkpoints near the end, the next starts from one.
    const descending = orders()['sort=createdAt desc'];
    const firstDown = await page('?sort=createdAt desc&limit=20&offset=500&withTotal=false');
    expect(idsOf(body(firstDown).results)).toEqual(idsOf(descending.slice(500, 520)));
    const down = await page('?sort=createdAt desc&limit=20&offset=600&withTotal=false');
    expect(idsOf(body(down).results)).toEqual(idsOf(descending.slice(600, 620)));
    expect(passes(down)).toBe(false);
  });

  it('every offset, in every order the store reads in, with a second sort inside a millisecond: the reference page', async () => {
    // Notes checkpoints first, both directions, then pages across them and across the 150-resource millisecond.
    await page('?limit=20&offset=740&withTotal=false');
    await page('?sort=id desc&limit=20&offset=740&withTotal=false');
    for (const [sort, reference] of Object.entries(orders())) {
      for (const offset of [200, 201, 299, 300, 301, 399, 449, 450, 451, 500, 601, 730, 749, 750]) {
        const observed = await page(`?${sort}&limit=7&offset=${offset}&withTotal=false`);
        expect(idsOf(body(observed).results), `${sort} offset ${offset}`).toEqual(idsOf(reference.slice(offset, offset + 7)));
      }
    }
  });

  it('checkpoints that cannot be noted (a throttled or refused write) do not fail the page', async () => {
    class RefusingStore extends DynamoDbResourceQueryStore {
      refused = 0;
      override async recordCheckpoints(): Promise<void> {
        this.refused++;
        throw Object.assign(new Error('Throughput exceeds the current capacity of your table or index.'), { name: 'ProvisionedThroughputExceededException' });
      }
    }
    const refusing = new RefusingStore((await import('../../shared/composition-root')).dynamoDb(), process.env.TABLE_NAME!);
    const service = new ResourceQueryService(refusing, new QueryBudget(10_000));
    // A project of its own, so that no checkpoints are there yet: the deep page passes and notes.
    const project = 'scale-checkpoints-refused';
    let calls = 0;
    const past = new DynamoDbResourceStore((await import('../../shared/composition-root')).dynamoDb(), process.env.TABLE_NAME!, () =>
      new Date(Date.UTC(2025, 10, 1) + calls++).toISOString(),
    );
    const created: Resource[] = [];
    for (let index = 0; index < 260; index++) created.push(await past.create(project, { objectTypeProperty: objectTypeProperty(index) }));
    const answer = await service.query(project, new QueryParameters(new Map([['sort', ['createdAt asc']], ['offset', ['230']], ['limit', ['20']], ['withTotal', ['false']]])));
    expect(idsOf(answer.results)).toEqual(idsOf([...created].sort(byCreation).slice(230, 250)));
    expect(refusing.refused).toBe(1);
  });

  it('checkpoints of a later delete count are never replaced by older ones', async () => {
    const project = 'scale-checkpoints-race';
    await queries.recordCheckpoints(project, { deleted: 5, checkpoints: [{ position: 100, id: 'newer' }] });
    await queries.recordCheckpoints(project, { deleted: 3, checkpoints: [{ position: 100, id: 'older' }] });
    expect(await queries.checkpoints(project)).toEqual({ deleted: 5, checkpoints: [{ position: 100, id: 'newer' }] });
    await queries.recordCheckpoints(project, { deleted: 5, checkpoints: [{ position: 200, id: 'same-count' }] });
    expect((await queries.checkpoints(project))?.checkpoints).toEqual([{ position: 200, id: 'same-count' }]);
  });

  it('a delete repairs them from its tombstone: the next deep page still reads about a page, exactly, in both directions', async () => {
    await page('?sort=createdAt asc&limit=20&offset=500&withTotal=false'); // checkpoints in place
    await page('?sort=createdAt desc&limit=20&offset=500&withTotal=false');
    const before = (await queries.checkpoints(CHECKPOINTED))!;
    expect(before.deletesSeen?.ids).toEqual([]);
    // Two deletes before the checkpoints near 500 from the start; one among the last (before those counted from the end).
    const ascending = orders()['sort=createdAt asc'];
    for (const gone of [ascending[120]!, ascending[121]!, ascending[700]!]) {
      expect((await gateway.send('DELETE', `/${CHECKPOINTED}/resource/${gone.id}?version=1`)).answer.statusCode).toBe(200);
      resources = resources.filter((resource) => resource.id !== gone.id);
    }

    // The first deep page after them: the counters and the checkpoints, the tombstones since, the
    // page from the repaired checkpoint; then the repaired checkpoints are written again at the new
    // delete count (the tombstones of the last moments, the counters, the item).
    const first = await page('?sort=createdAt asc&limit=20&offset=500&withTotal=false');
    expect(idsOf(body(first).results)).toEqual(idsOf(orders()['sort=createdAt asc'].slice(500, 520)));
    expect(passes(first)).toBe(false);
    expect([...first.calls].sort()).toEqual(['GetItemCommand', 'PutItemCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand', 'QueryCommand']);
    expect((await queries.checkpoints(CHECKPOINTED))!.deleted).toBe(before.deleted + 3);

    for (const sort of ['sort=createdAt asc', 'sort=createdAt desc', ''] as const) {
      for (const offset of [300, 500, 601]) {
        const observed = await page(`?${sort}&limit=20&offset=${offset}&withTotal=false`);
        expect(idsOf(body(observed).results), `${sort} ${offset}`).toEqual(idsOf(orders()[sort].slice(offset, offset + 20)));
        expect(passes(observed), `${sort} ${offset}`).toBe(false);
      }
    }
    // The pages after it read as before any delete: the counters, the checkpoints, the page — at an
    // offset whose page does not end inside a millisecond, so that one read completes it.
    const now = orders()['sort=createdAt asc'];
    const offset = [510, 511, 512].find((candidate) => now[candidate + 19]!.createdAt !== now[candidate + 20]!.createdAt)!;
    const settled = await page(`?sort=createdAt asc&limit=20&offset=${offset}&withTotal=false`);
    expect(idsOf(body(settled).results)).toEqual(idsOf(now.slice(offset, offset + 20)));
    expect([...settled.calls].sort()).toEqual(['GetItemCommand', 'QueryCommand', 'QueryCommand']);
    const start = Math.max(...(await queries.checkpoints(CHECKPOINTED))!.checkpoints.map(({ position }) => position).filter((position) => position <= offset));
    expect(settled.readUnits).toBeLessThanOrEqual(2 + Math.ceil(((offset - start + 21) * 0.6) / 4));
  });

  it('tombstones that are not the deletes counted (one taken away): set aside, the next deep page passes again, exactly, and notes afresh', async () => {
    const gone = orders()['sort=createdAt asc'][130]!;
    expect((await gateway.send('DELETE', `/${CHECKPOINTED}/resource/${gone.id}?version=1`)).answer.statusCode).toBe(200);
    resources = resources.filter((resource) => resource.id !== gone.id);
    const dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
    const { Items = [] } = await dynamoDb.send(
      new QueryCommand({
        TableName: process.env.TABLE_NAME!,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': projectPartition(CHECKPOINTED), ':from': TOMBSTONE_PREFIX, ':to': TOMBSTONE_RANGE_END },
      }),
    );
    const tombstone = Items.find((item) => (item.sk as string).endsWith(gone.id))!;
    expect(tombstone.expiresAt).toBeGreaterThan(Date.now() / 1000 + 23 * 3600); // the TTL takes it after a day
    await dynamoDb.send(new DeleteCommand({ TableName: process.env.TABLE_NAME!, Key: { pk: tombstone.pk, sk: tombstone.sk } }));

    const afterDelete = await page('?sort=createdAt asc&limit=20&offset=500&withTotal=false');
    expect(idsOf(body(afterDelete).results)).toEqual(idsOf(orders()['sort=createdAt asc'].slice(500, 520)));
    expect(passes(afterDelete)).toBe(true);
    expect((await queries.checkpoints(CHECKPOINTED))!.deleted).toBe(4);
    const settled = await page('?sort=createdAt asc&limit=20&offset=510&withTotal=false');
    expect(idsOf(body(settled).results)).toEqual(idsOf(orders()['sort=createdAt asc'].slice(510, 530)));
    expect(passes(settled)).toBe(false);
  });

  it('creates append and keep them', async () => {
    // A create lands after every checkpoint (its id is the newest): pages from the start are unmoved,
    // pages from the end count it through the counters.
    await page('?sort=createdAt desc&limit=20&offset=500&withTotal=false');
    const created = body(await gateway.send('POST', `/${CHECKPOINTED}/resource`, { key: 'c-new', objectTypeProperty: objectTypeProperty(1) }));
    resources.push(created);
    for (const sort of ['sort=createdAt asc', 'sort=createdAt desc'] as const) {
      const observed = await page(`?${sort}&limit=20&offset=505&withTotal=false`);
      expect(idsOf(body(observed).results), sort).toEqual(idsOf(orders()[sort].slice(505, 525)));
      expect(passes(observed), sort).toBe(false);
    }
  });
});
