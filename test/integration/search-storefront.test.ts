import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '../../shared/domain/resource';
import { creationOrderedId } from '../../shared/domain/resource-id';
import { STEMMING_DICTIONARIES } from '../../shared/domain/search';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { PostgresSearchIndexWriter } from '../../shared/store/postgres/search-index-writer';
import { searchDatabase } from '../support/search-differential';
import { startInProcessGateway, type InProcessGateway } from './in-process';
import { untilSearchable } from './search-index-caught-up';

/**
 * searchApiPattern as a storefront uses it: instants compare as instants, text is
 * analysed (case, accents, the locale's stems), and a term facet answers the same bytes whatever
 * the project's size.
 */
const PROJECT = 'search-storefront';
let gateway: InProcessGateway;
let pool: pg.Pool;
const created: Resource[] = [];

const search = async (project: string, query: string) => {
  const { answer } = await gateway.send('GET', `/${project}/resource/searchApiPattern?${query}`);
  return { status: answer.statusCode, body: answer.body as string, json: JSON.parse(answer.body as string) };
};
const keysOf = (answer: { json: { results: Resource[] } }) => answer.json.results.map((resource) => resource.key).sort();

beforeAll(async () => {
  gateway = await startInProcessGateway();
  pool = searchDatabase();
  // Three resources created at 06:08Z, one at 05:59Z.
  const times = ['2026-11-29T06:08:00.000Z', '2026-11-29T06:08:01.000Z', '2026-11-29T06:08:02.500Z', '2026-11-29T05:59:00.000Z'];
  const strings = [['Café crème'], ['a DOG'], ['cafe', 'lanterns'], ['dogs']];
  for (const [index, at] of times.entries()) {
    const store = new DynamoDbResourceStore((await import('../../shared/composition-root')).dynamoDb(), process.env.TABLE_NAME!, () => at);
    created.push(await store.create(PROJECT, { key: `item-${index}`, objectTypeProperty: { arrayOfStringExample: strings[index]! } }));
  }
  await untilSearchable(async () => (await search(PROJECT, 'limit=1')).json.total, created.length);
}, 60_000);

afterAll(async () => {
  gateway?.stop();
  await pool?.end();
});

describe('instants in search', () => {
  it('a createdAt range with an offset finds what `where` finds (the issue\'s example)', async () => {
    const since = '2026-11-29T07:00:00+01:00';
    const searched = await search(PROJECT, `filter.query=${encodeURIComponent(`createdAt:range("${since}" to *)`)}`);
    const queried = JSON.parse((await gateway.send('GET', `/${PROJECT}/resource?where=${encodeURIComponent(`createdAt >= "${since}"`)}`)).answer.body as string);
    expect(keysOf(searched)).toEqual(['item-0', 'item-1', 'item-2']);
    expect(keysOf(searched)).toEqual(queried.results.map((resource: Resource) => resource.key).sort());
  });

  it('seconds or milliseconds, any offset; sorts and facets by instant, written back as UTC', async () => {
    expect(keysOf(await search(PROJECT, `filter=${encodeURIComponent('createdAt:range(* to "2026-11-29T01:08:01-05:00")')}`))).toEqual(['item-0', 'item-1', 'item-3']);
    expect(keysOf(await search(PROJECT, `filter=${encodeURIComponent('createdAt:"2026-11-29T06:08:02.500Z"')}`))).toEqual(['item-2']);
    const sorted = await search(PROJECT, 'sort=createdAt%20desc&facet=createdAt&facetLimit=2');
    expect(sorted.json.results.map((resource: Resource) => resource.key)).toEqual(['item-2', 'item-1', 'item-0', 'item-3']);
    expect(sorted.json.facets.createdAt).toEqual({
      type: 'terms',
      dataType: 'datetime',
      missing: 0,
      total: 4,
      other: 2,
      terms: [
        { term: '2026-11-29T05:59:00.000Z', count: 1 },
        { term: '2026-11-29T06:08:00.000Z', count: 1 },
      ],
    });
  });
});

describe('analysed text', () => {
  it('folds case and accents both ways', async () => {
    for (const term of ['cafe', 'café', 'CAFÉ']) expect(keysOf(await search(PROJECT, `text.fr=${encodeURIComponent(term)}`)), term).toEqual(['item-0', 'item-2']);
    expect(keysOf(await search(PROJECT, 'text.en=dog'))).toEqual(['item-1', 'item-3']);
  });

  it('has every stemmer the domain names (stemmerOf) in the engine', async () => {
    const { rows } = await pool.query<{ name: string }>('SELECT dictname AS name FROM pg_ts_dict');
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining([...STEMMING_DICTIONARIES]));
  });

  it('stems in the locale\'s language: text.en=dogs finds dog; a locale without a stemmer folds only', async () => {
    expect(keysOf(await search(PROJECT, 'text.en=dogs'))).toEqual(['item-1', 'item-3']);
    expect(keysOf(await search(PROJECT, 'text.en-GB=lantern'))).toEqual(['item-2']);
    expect(keysOf(await search(PROJECT, 'text.ja=dogs'))).toEqual(['item-3']);
  });
});

describe('bounded term facets', () => {
  /** `size` resources of keys of one length, straight into the index (the facet reads only the index). */
  async function projectOf(size: number): Promise<string> {
    const project = `search-facets-${size}`;
    const writer = new PostgresSearchIndexWriter(pool);
    for (let first = 0; first < size; first += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, size - first) }, (_, offset) => {
        const createdAt = new Date(Date.UTC(2026, 0, 1) + (first + offset) * 1_000).toISOString();
        const resource: Resource = { id: creationOrderedId(createdAt), version: 1, createdAt, lastModifiedAt: createdAt, key: `k-${String(first + offset).padStart(6, '0')}`, objectTypeProperty: {} };
        return { kind: 'put' as const, projectKey: project, resource };
      });
      await writer.apply(batch);
    }
    return project;
  }

  it('answers the 10 most frequent terms, `other` the rest: the same bytes at 300 and 3,000 resources', async () => {
    const [small, large] = [await search(await projectOf(300), 'facet=key&limit=1'), await search(await projectOf(3_000), 'facet=key&limit=1')];
    expect(large.json.facets.key).toMatchObject({ type: 'terms', missing: 0, total: 3_000, other: 2_990 });
    expect(large.json.facets.key.terms).toHaveLength(10);
    expect(large.json.facets.key.terms[0]).toEqual({ term: 'k-000000', count: 1 });
    expect(JSON.stringify(large.json.facets).length).toBe(JSON.stringify(small.json.facets).length + 2);
    expect(large.body.length).toBeLessThan(2_000);
  });

  it('lists up to facetLimit (at most 200) terms', async () => {
    const project = await projectOf(300);
    expect((await search(project, 'facet=key&facetLimit=200&limit=1')).json.facets.key.terms).toHaveLength(200);
    expect((await search(project, 'facet=key&facetLimit=201')).status).toBe(400);
  });
});
