import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createPostgresPool } from '../../shared/aws/postgres';
import type { Resource } from '../../shared/domain/resource';
import { resourceJsonSchema } from '../../shared/domain/resource-fields';
import { QueryParameters } from '../../shared/domain/query-parameters';
import { compileSearchApiPattern, facetResultOf } from '../../shared/domain/search';
import { PostgresSearchIndex } from '../../shared/store/postgres/search-index';
import { PostgresSearchIndexWriter } from '../../shared/store/postgres/search-index-writer';

/**
 * Projects are apart in the engine: a search in one never sees another's resources, words (fuzzy
 * candidates) or values (filters, facets), even where both hold a resource of the same id. Straight
 * on the local stack's PostgreSQL, through the adapter the functions run.
 */
let pool: pg.Pool;
let index: PostgresSearchIndex;
const [A, B] = [`isolation-a-${randomUUID()}`, `isolation-b-${randomUUID()}`];
const shared = randomUUID();

const resource = (id: string, words: string[], ints: number[]): Resource => ({
  id,
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastModifiedAt: '2026-01-01T00:00:00.000Z',
  key: `k-${id.slice(0, 8)}`,
  objectTypeProperty: { arrayOfIntExample: ints, arrayOfStringExample: words },
});

beforeAll(async () => {
  const { searchDatabaseUrl } = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8')) as { searchDatabaseUrl: string };
  pool = createPostgresPool({ url: searchDatabaseUrl }, 'search');
  index = new PostgresSearchIndex(pool);
  await new PostgresSearchIndexWriter(pool).apply([
    { kind: 'put', projectKey: A, resource: resource(shared, ['zebra crossing'], [7]) },
    { kind: 'put', projectKey: A, resource: resource(randomUUID(), ['quagga'], [7, 8]) },
    { kind: 'put', projectKey: B, resource: resource(shared, ['okapi'], [1]) },
  ]);
});

afterAll(() => pool?.end());

async function search(projectKey: string, params: Record<string, string[]>) {
  const request = compileSearchApiPattern(new QueryParameters(new Map(Object.entries(params))), resourceJsonSchema());
  const hits = await index.search(projectKey, request);
  return { ...hits, facets: Object.fromEntries(request.facets.map((facet, at) => [facet.name, facetResultOf(facet, hits.facets[at]!)])) };
}

describe('project isolation in the search engine', () => {
  it('text, fuzzy or not, finds only the project\'s own words', async () => {
    expect(await search(B, { 'text.en': ['zebra'] })).toMatchObject({ ids: [], total: 0 });
    expect(await search(B, { 'text.en': ['zebre'], fuzzy: ['true'] })).toMatchObject({ ids: [], total: 0 });
    expect(await search(B, { 'text.en': ['crossings'] })).toMatchObject({ ids: [], total: 0 });
    expect(await search(A, { 'text.en': ['crossings'] })).toMatchObject({ ids: [shared], total: 1 });
    expect(await search(A, { 'text.en': ['zebre'], fuzzy: ['true'] })).toMatchObject({ ids: [shared], total: 1 });
    expect(await search(B, { 'text.en': ['okapi'] })).toMatchObject({ ids: [shared], total: 1 });
    expect(await search(A, { 'text.en': ['okapi'] })).toMatchObject({ ids: [], total: 0 });
  });

  it('filters and facets count only the project\'s own values, even for a resource of the same id', async () => {
    expect(await search(B, { filter: ['objectTypeProperty.arrayOfIntExample:7'] })).toMatchObject({ ids: [], total: 0 });
    const facets = ['objectTypeProperty.arrayOfIntExample', 'objectTypeProperty.arrayOfIntExample:range(0 to 10) as ranges', 'objectTypeProperty.arrayOfStringExample:exists as present'];
    const { facets: counted, total } = await search(B, { facet: facets });
    expect(total).toBe(1);
    expect(counted['objectTypeProperty.arrayOfIntExample']).toMatchObject({ missing: 0, total: 1, terms: [{ term: 1, count: 1 }] });
    expect(counted['ranges']).toMatchObject({ ranges: [{ count: 1, totalCount: 1, total: 1 }] });
    expect(counted['present']).toEqual({ type: 'filter', count: 1 });
  });
});
