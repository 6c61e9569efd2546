import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createPostgresPool } from '../../shared/aws/postgres';
import type { Resource } from '../../shared/domain/resource';
import { PostgresSearchIndexWriter } from '../../shared/store/postgres/search-index-writer';
import { call, tokenFor } from './api-client';
import { untilSearchable } from './search-index-caught-up';

/**
 * A storefront searches a small catalogue as shops do (POST /{projectKey}/resource/search,
 * Product Search's request): search as you type, a filtered listing with its facets, relevance and
 * field sorts, paging, the resources themselves, and the mistakes a client makes. Each product's
 * texts are its name and category (`arrayOfStringExample`), its sizes `arrayOfIntExample`, its price
 * `arrayOfFloatExample` and its stock `arrayOfObjectType[].integerExample`.
 */
const project = 'storefront';
const catalogue = [
  { key: 'lantern-red', texts: ['Red lantern', 'outdoor'], sizes: [2, 3], price: 19.5, stock: [5] },
  { key: 'lantern-blue', texts: ['Blue lantern', 'outdoor'], sizes: [3, 4], price: 24, stock: [7] },
  { key: 'lanterns-set', texts: ['Lanterns, set of three', 'garden'], sizes: [1], price: 49, stock: [0] },
  { key: 'lamp-desk', texts: ['Desk lamp', 'office'], sizes: [2], price: 35, stock: [] },
  { key: 'candle-red', texts: ['Red candle', 'scented'], sizes: [1, 2], price: 4.5, stock: [12] },
  { key: 'bistro-table', texts: ['Café table', 'garden'], sizes: [5], price: 120, stock: [1] },
  { key: 'landing-light', texts: ['Landing light'], sizes: undefined, price: 60, stock: [3] },
  { key: 'rug-blue', texts: ['Blue rug'], sizes: [6], price: 80, stock: [] },
];
const created = new Map<string, Resource>();

beforeAll(async () => {
  const token = await tokenFor();
  for (const { key, texts, sizes, price, stock } of catalogue) {
    const objectTypeProperty = {
      arrayOfStringExample: texts,
      arrayOfFloatExample: [price],
      ...(sizes ? { arrayOfIntExample: sizes } : {}),
      ...(stock.length > 0 ? { arrayOfObjectType: stock.map((integerExample) => ({ integerExample })) } : {}),
    };
    const answer = await call('POST', `/${project}/resource`, { token, json: { key, objectTypeProperty } });
    expect(answer.status).toBe(201);
    created.set(key, answer.body);
  }
  await untilSearchable(async () => (await search({ limit: 0 })).body.total, catalogue.length);
});

const search = async (body: unknown, projectKey = project) => call('POST', `/${projectKey}/resource/search`, { token: await tokenFor(), json: body });
const idOf = (key: string) => created.get(key)!.id;
const keysOf = (answer: { body: { results: { id: string }[] } }) =>
  answer.body.results.map(({ id }) => [...created].find(([, resource]) => resource.id === id)?.[0] ?? id);
const sameKeys = (answer: { body: { results: { id: string }[] } }) => keysOf(answer).sort();

describe('search as you type', () => {
  it('fullTextPrefix finds the words that start with what is typed', async () => {
    expect(sameKeys(await search({ query: { fullTextPrefix: { value: 'lan' } } }))).toEqual(['landing-light', 'lantern-blue', 'lantern-red', 'lanterns-set']);
    expect(sameKeys(await search({ query: { fullTextPrefix: { value: 'red lan' } } }))).toEqual(['lantern-red']);
  });

  it('the words before the last fuzzy, the last a prefix; a typo within the word\'s level still finds it', async () => {
    const typed = await search({ query: { and: [{ fuzzy: { value: 'rde', level: 1 } }, { fullTextPrefix: { value: 'can' } }] } });
    expect(typed.status).toBe(200);
    expect(sameKeys(typed)).toEqual(['candle-red']);
    // A swap counts as one edit, a letter more as another: two, allowed for a word of seven letters.
    expect(sameKeys(await search({ query: { fuzzy: { value: 'lnatern', level: 2 } } }))).toEqual(['lantern-blue', 'lantern-red', 'lanterns-set']);
    // The level asked is capped by the word's length: one edit for a word of three letters.
    expect(sameKeys(await search({ query: { fuzzy: { value: 'rgu', level: 2 } } }))).toEqual(['rug-blue']);
    expect(sameKeys(await search({ query: { fuzzy: { value: 'xgu', level: 2 } } }))).toEqual([]);
  });

  it('folds case and accents, and stems in the language asked', async () => {
    expect(sameKeys(await search({ query: { fullText: { value: 'CAFE' } } }))).toEqual(['bistro-table']);
    expect(sameKeys(await search({ query: { fullText: { field: 'objectTypeProperty.arrayOfStringExample', value: 'lanterns' } } }))).toEqual(['lanterns-set']);
    expect(sameKeys(await search({ query: { fullText: { field: 'objectTypeProperty.arrayOfStringExample', value: 'lanterns', language: 'en' } } }))).toEqual([
      'lantern-blue',
      'lantern-red',
      'lanterns-set',
    ]);
  });
});

describe('a listing with its facets', () => {
  const listing = {
    query: {
      and: [
        { fullText: { field: 'objectTypeProperty.arrayOfStringExample', value: 'red blue', mustMatch: 'any' } },
        { filter: [{ range: { field: 'objectTypeProperty.arrayOfFloatExample', lt: 100 } }] },
      ],
    },
    postFilter: { exact: { field: 'objectTypeProperty.arrayOfIntExample', values: [2] } },
    facets: [
      { distinct: { name: 'sizes', field: 'objectTypeProperty.arrayOfIntExample', limit: 3 } },
      { distinct: { name: 'stock', field: 'objectTypeProperty.arrayOfObjectType.integerExample', missing: 'none' } },
      { ranges: { name: 'price', field: 'objectTypeProperty.arrayOfFloatExample', ranges: [{ to: 20, key: 'under 20' }, { from: 20, to: 50 }, { from: 50 }] } },
      { count: { name: 'everything', scope: 'all' } },
      { count: { name: 'garden', scope: 'all', filter: { exact: { field: 'objectTypeProperty.arrayOfStringExample', value: 'garden' } } } },
      { stats: { name: 'prices', field: 'objectTypeProperty.arrayOfFloatExample' } },
      { stats: { name: 'added', field: 'createdAt' } },
    ],
  };

  it('the query narrows results and facets; postFilter the results only', async () => {
    const answer = await search(listing);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 2, offset: 0, limit: 20 });
    expect(sameKeys(answer)).toEqual(['candle-red', 'lantern-red']);
    const added = ['lantern-red', 'lantern-blue', 'candle-red', 'rug-blue'].map((key) => created.get(key)!.createdAt).sort();
    expect(answer.body.facets).toEqual([
      // Sizes of the four red or blue products under 100: 2 and 3 twice, then 1, 4 and 6 once (ties by value).
      { name: 'sizes', buckets: [{ key: '2', count: 2 }, { key: '3', count: 2 }, { key: '1', count: 1 }] },
      { name: 'stock', buckets: [{ key: '5', count: 1 }, { key: '7', count: 1 }, { key: '12', count: 1 }, { key: 'none', count: 1 }] },
      { name: 'price', buckets: [{ key: 'under 20', count: 2 }, { key: '20-50', count: 1 }, { key: '50-*', count: 1 }] },
      { name: 'everything', value: 8 },
      { name: 'garden', value: 2 },
      { name: 'prices', min: 4.5, max: 80, mean: 32, sum: 128, count: 4 },
      { name: 'added', min: added[0], max: added[3], count: 4 },
    ]);
  });

  it('date-times compare as instants, whatever their offset', async () => {
    const first = created.get('lantern-red')!.createdAt;
    const shifted = new Date(Date.parse(first) + 60 * 60_000).toISOString().replace('Z', '+01:00');
    const since = await search({ query: { range: { field: 'createdAt', gte: shifted } }, limit: 0 });
    expect(since.body.total).toBe(catalogue.length);
  });
});

describe('order and pages', () => {
  it('by score: the product holding most of the words first, with sort or by default', async () => {
    const query = { fullText: { value: 'red lantern', mustMatch: 'any' } };
    const byScore = await search({ query, sort: [{ field: 'score', order: 'desc' }] });
    expect(sameKeys(byScore)).toEqual(['candle-red', 'lantern-blue', 'lantern-red']);
    expect(keysOf(byScore)[0]).toBe('lantern-red');
    expect(keysOf(await search({ query }))).toEqual(keysOf(byScore));
    expect(keysOf(await search({ query, sort: [{ field: 'score', order: 'asc' }] })).at(-1)).toBe('lantern-red');
  });

  it('by fields: a set reduced by its mode, resources without a value last, ties by the next key', async () => {
    const sorted = await search({ sort: [{ field: 'objectTypeProperty.arrayOfIntExample', order: 'desc', mode: 'max' }, { field: 'key', order: 'asc' }] });
    expect(keysOf(sorted)).toEqual(['rug-blue', 'bistro-table', 'lantern-blue', 'lantern-red', 'candle-red', 'lamp-desk', 'lanterns-set', 'landing-light']);
  });

  it('pages through the same order; limit 0 counts only', async () => {
    const byPrice = { sort: [{ field: 'objectTypeProperty.arrayOfFloatExample', order: 'desc' }] };
    const pages = await Promise.all([0, 3, 6].map((offset) => search({ ...byPrice, limit: 3, offset })));
    expect(pages.flatMap(keysOf)).toEqual(['bistro-table', 'rug-blue', 'landing-light', 'lanterns-set', 'lamp-desk', 'lantern-blue', 'lantern-red', 'candle-red']);
    expect(pages.map((page) => page.body.total)).toEqual([8, 8, 8]);
    expect((await search({ limit: 0 })).body).toEqual({ total: 8, offset: 0, limit: 0, facets: [], results: [] });
  });
});

describe('results', () => {
  it('are ids; with resourceParameters, each current resource as a read by id answers it', async () => {
    const query = { exact: { field: 'key', values: ['rug-blue', 'lamp-desk'] } };
    const sort = [{ field: 'key', order: 'asc' }];
    expect((await search({ query, sort })).body.results).toEqual([{ id: idOf('lamp-desk') }, { id: idOf('rug-blue') }]);
    const withResources = await search({ query, sort, resourceParameters: {} });
    const read = await call('GET', `/${project}/resource/${idOf('lamp-desk')}`, { token: await tokenFor() });
    expect(withResources.body.results).toEqual([
      { id: idOf('lamp-desk'), resource: read.body },
      { id: idOf('rug-blue'), resource: created.get('rug-blue') },
    ]);
  });

  it('leave out a resource the index still holds and the table no longer does', async () => {
    const ghosts = 'storefront-ghosts';
    const { searchDatabaseUrl } = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8')) as { searchDatabaseUrl: string };
    const pool = createPostgresPool({ url: searchDatabaseUrl }, 'indexing');
    const ghost = { ...created.get('rug-blue')!, id: randomUUID() };
    try {
      await new PostgresSearchIndexWriter(pool).apply([{ kind: 'put', projectKey: ghosts, resource: ghost }]);
    } finally {
      await pool.end();
    }
    expect((await search({}, ghosts)).body).toMatchObject({ total: 1, results: [{ id: ghost.id }] });
    expect((await search({ resourceParameters: {} }, ghosts)).body).toMatchObject({ total: 1, results: [] });
  });
});

describe('refusals', () => {
  it('400 InvalidInput naming the expression at fault', async () => {
    const answer = await search({ query: { and: [{ fullText: { value: 'lamp' } }, { exact: { field: 'colour', value: 'red' } }] } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput', message: "query.and[1].exact.field: Unknown field 'colour'." }] });
    for (const [body, message] of [
      [{ query: { range: { field: 'objectTypeProperty.arrayOfFloatExample', gte: 'cheap' } } }, 'query.range.gte: Expected a number'],
      [{ query: { range: { field: 'createdAt', gte: 'yesterday' } } }, 'query.range.gte: Expected an ISO 8601 date-time'],
      [{ facets: [{ distinct: { name: 'sizes', field: 'objectTypeProperty.arrayOfIntExample', limit: 500 } }] }, 'facets[0].distinct.limit: Too big'],
      [{ query: { fuzzy: { value: 'lamp', level: 3 } } }, 'query.fuzzy.level: Too big'],
      [{ query: { exists: { field: 'key' } }, limit: 101 }, 'limit: Too big'],
      [{ query: { and: Array.from({ length: 51 }, () => ({ exists: { field: 'key' } })) } }, 'query.and[49]: A query holds at most 50 expressions.'],
      [{ query: { prefix: { field: 'key', value: 'lan' } }, markMatchingVariants: true, expand: ['x'] }, 'expand: Unknown property.'],
    ] as const) {
      const refused = await search(body);
      expect(refused.status, message).toBe(400);
      expect(refused.body.errors[0].message, message).toContain(message);
    }
  });

  it('a body that is not JSON is refused as for any JSON route; other methods on the path are 405', async () => {
    const token = await tokenFor();
    expect((await call('POST', `/${project}/resource/search`, { token, body: 'query=lamp', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const malformed = await call('POST', `/${project}/resource/search`, { token, body: '{"query":', headers: { 'content-type': 'application/json' } });
    expect(malformed.body.errors[0].code).toBe('InvalidJsonInput');
    const get = await call('GET', `/${project}/resource/search`, { token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('reads with manage_test or view_test of the project, and no other scope', async () => {
    const body = { query: { exists: { field: 'key' } }, limit: 0 };
    expect((await call('POST', `/${project}/resource/search`, { token: await tokenFor(`view_test:${project}`), json: body })).status).toBe(200);
    expect((await call('POST', `/${project}/resource/search`, { token: await tokenFor(`manage_products:${project}`), json: body })).status).toBe(403);
    expect((await call('POST', `/${project}/resource/search`, { token: await tokenFor('view_test:demo'), json: body })).status).toBe(403);
    expect((await call('POST', `/${project}/resource/search`, { json: body })).status).toBe(401);
  });
});
