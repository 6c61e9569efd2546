import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createPostgresPool } from '../../shared/aws/postgres';
import type { Resource } from '../../shared/domain/resource';
import { resourceJsonSchema } from '../../shared/domain/resource-fields';
import { compileSearchApiPattern } from '../../shared/domain/search';
import { QueryParameters } from '../../shared/domain/query-parameters';
import { SearchIndexMigration } from '../../shared/services/search-index-migration';
import { SearchIndexing } from '../../shared/services/search-indexing';
import { DynamoDbResourceQueryStore } from '../../shared/store/dynamodb/resource-query-store';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { PostgresSearchIndex } from '../../shared/store/postgres/search-index';
import { PostgresSearchIndexContents } from '../../shared/store/postgres/search-index-contents';
import { PostgresSearchIndexVersions } from '../../shared/store/postgres/search-index-versions';
import { PostgresSearchIndexWriter } from '../../shared/store/postgres/search-index-writer';
import { SEARCH_INDEX_VERSION, SEARCH_SCHEMA, schemaOf } from '../../shared/store/postgres/search-schema';
import type { IndexChange } from '../../shared/store/search-index';
import { SEARCH_SCHEMA_V1, searchV1, writeV1 } from '../support/search-index-v1';

/**
 * Versions of the search index on the local stack's engines: each scenario in a database of its own
 * in the stack's PostgreSQL (version 1 lives in `public`), with projects of its own in its DynamoDB
 * Local. The version after version 1 is the product's tables at SEARCH_INDEX_VERSION, or, while that
 * is still 1, at a version 2 made of them.
 */
const NEXT = Math.max(SEARCH_INDEX_VERSION, 2);

/**
 * Each version's fingerprint: its DDL and what the index holds of fixed resources. A change of
 * either raises SEARCH_INDEX_VERSION, and the deploy rebuilds the index; record the new one here.
 */
const FINGERPRINTS: Record<number, string> = {
  1: '664c08f0129eb916e5214a733cf920d7ed79eec101357e330ecdde1937ec9581',
  2: 'ab2164f42dea2c8dfc6fa3fb5781ac006392df2097b90dfa9d2ccb25dd69bb73',
};

const local = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8')) as { dynamoDbEndpoint: string; tableName: string; searchDatabaseUrl: string };
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: local.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  { marshallOptions: { removeUndefinedValues: true } },
);
const table = new DynamoDbResourceStore(documents, local.tableName);
const queries = new DynamoDbResourceQueryStore(documents, local.tableName);
const admin = createPostgresPool({ url: local.searchDatabaseUrl }, 'indexing');
const databases: string[] = [];
const pools: pg.Pool[] = [];

/** A database of the test's own, and a pool at a version of the index in it. */
async function database(): Promise<(version: number) => pg.Pool> {
  const name = `versions_${randomUUID().replaceAll('-', '')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  databases.push(name);
  const url = new URL(local.searchDatabaseUrl);
  url.pathname = `/${name}`;
  return (version) => {
    const pool = createPostgresPool({ url: url.toString() }, 'indexing', version);
    pools.push(pool);
    return pool;
  };
}

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

/** A version's parts on a pool: the rebuild in small batches, so that it runs in many slices. */
function versionOn(pool: pg.Pool, version: number, schema = SEARCH_SCHEMA) {
  const writer = new PostgresSearchIndexWriter(pool);
  const indexing = new SearchIndexing(queries, writer, new PostgresSearchIndexContents(pool), { batch: 5, window: 10 });
  const versions = new PostgresSearchIndexVersions(pool, version, schema);
  return { writer, indexing, versions, migration: new SearchIndexMigration(versions, indexing) };
}

/**
 * What an index holds: each table of the version's schema, its rows as text, each with the resource
 * its `seq` stands for (a number that differs between two builds). Delete markers are left out when
 * asked (a fresh build has none of what was deleted before it).
 */
async function contents(pool: pg.Pool, version: number, { markers = true } = {}): Promise<Record<string, string[]>> {
  const schema = schemaOf(version);
  const { rows: tables } = await pool.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'search%' AND table_name NOT LIKE 'search_index_%' ORDER BY 1",
    [schema],
  );
  const held: Record<string, string[]> = {};
  const client = await pool.connect();
  try {
    // Times as text in one zone, whatever the machine's.
    await client.query("SET TIME ZONE 'UTC'");
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string; deleted: boolean | null; resource: string | null }>(
        `SELECT (to_jsonb(t) - 'seq')::text AS row, (to_jsonb(t) ->> 'deleted')::boolean AS deleted, r.project_key || '/' || r.id AS resource
         FROM ${schema}.${name} t LEFT JOIN ${schema}.search_resources r ON r.seq = (to_jsonb(t) ->> 'seq')::bigint`,
      );
      held[name] = rows.filter((row) => markers || row.deleted !== true).map(({ row, resource }) => `${resource ?? ''} ${row}`).sort();
    }
  } finally {
    client.release();
  }
  return held;
}

const put = (projectKey: string, resource: Resource): IndexChange => ({ kind: 'put', projectKey, resource });
const draft = (i: number) => ({ key: `k-${i}`, objectTypeProperty: { arrayOfStringExample: ['shared', `word${i % 5}`], arrayOfIntExample: [i, i % 3] } });

/** Version 1 as deployed, holding what the stream wrote of the projects' resources, created in the table. */
async function previousVersion(pool: pg.Pool, projects: string[], size: number): Promise<Map<string, Resource[]>> {
  for (const statement of SEARCH_SCHEMA_V1) await pool.query(statement);
  const held = new Map<string, Resource[]>();
  for (const project of projects) {
    const created: Resource[] = [];
    for (let i = 0; i < size; i++) created.push(await table.create(project, draft(i) as never));
    held.set(project, created);
    await writeV1(pool, created.map((resource) => put(project, resource)));
  }
  return held;
}

/**
 * A rebuilt index holds what a fresh build holds, but for the dictionary (words and their stems),
 * which is insert-only: it may also hold words of resources deleted after the rebuild wrote them,
 * and their stems. Answers those words.
 */
function expectSameIndex(rebuilt: Record<string, string[]>, built: Record<string, string[]>): string[] {
  const dictionary = ['search_words', 'search_stems'];
  expect(Object.keys(rebuilt)).toEqual(Object.keys(built));
  for (const name of Object.keys(built).filter((name) => !dictionary.includes(name))) expect(rebuilt[name], name).toEqual(built[name]);
  const extraWordsOf = (name: string) => {
    expect(built[name]!.filter((row) => !rebuilt[name]!.includes(row)), name).toEqual([]);
    return rebuilt[name]!.filter((row) => !built[name]!.includes(row)).map((row) => (JSON.parse(row.slice(1)) as { word: string }).word);
  };
  const words = extraWordsOf('search_words');
  for (const word of extraWordsOf('search_stems')) expect(words).toContain(word);
  return words;
}

/** A fresh build of the projects at a version, in a database of its own: what a rebuild must equal. */
async function freshBuild(version: number, projects: string[]) {
  const pool = (await database())(version);
  const fresh = versionOn(pool, version);
  expect(await fresh.migration.migrate()).toEqual({ complete: true, indexed: 0 });
  for (const project of projects) await fresh.indexing.reindex(project);
  return contents(pool, version);
}

describe('a release that raises the version of the search index', () => {
  const run = randomUUID().slice(0, 8);
  const [A, B, C, D, E] = ['a', 'b', 'c', 'd', 'e'].map((name) => `versions-${name}-${run}`) as [string, string, string, string, string];
  let held: Map<string, Resource[]>;
  let at: (version: number) => pg.Pool;

  beforeAll(async () => {
    at = await database();
    held = await previousVersion(at(1), [A, B, C], 24);
    // What an older projection wrote differently: none of it may reach the new version.
    await at(1).query('UPDATE search_resources SET word_count = word_count + 1');
  }, 60_000);

  it('is rebuilt beside the version that serves, which answers searches throughout; the result equals a fresh build', async () => {
    const previous = at(1);
    const next = versionOn(at(NEXT), NEXT);
    const answerBefore = await searchV1(previous, A, 'shared');
    expect(answerBefore).toHaveLength(24);

    // Searches of the version that serves, one after the other, until the migration is complete.
    let migrating = true;
    const answers: string[][] = [];
    const searches = (async () => {
      while (migrating) answers.push(await searchV1(previous, A, 'shared'));
    })();

    // Slices as short as can be: one batch each, as a Lambda run that is out of time.
    let slices = 0;
    let last = await next.migration.migrate(() => false);
    expect(last).toMatchObject({ complete: false, indexed: 5, rebuild: { done: 0, projects: 3 } });
    const [a, c] = [held.get(A)!, held.get(C)!];
    // The stream, on the new code, writes the new version meanwhile: over what the rebuild wrote, ahead of it, and new projects.
    const updatedEarly = await table.update(A, a[1]!.id, 1, { someProperty: 'during' });
    const updatedLate = await table.update(A, a[20]!.id, 1, { someProperty: 'during' });
    await table.delete(A, a[0]!.id);
    await table.delete(C, c[23]!.id);
    const createdInB = await table.create(B, draft(99) as never);
    const createdInE = await table.create(E, draft(7) as never);
    await next.writer.apply([
      put(A, updatedEarly),
      put(A, updatedLate),
      { kind: 'delete', projectKey: A, id: a[0]!.id, version: 1 },
      { kind: 'delete', projectKey: C, id: c[23]!.id, version: 1 },
      put(B, createdInB),
      put(E, createdInE),
    ]);
    // A batch the code before still wrote to the previous version, of a project it did not list.
    const createdInD = await table.create(D, draft(3) as never);
    await writeV1(previous, [put(D, createdInD)]);

    while (!last.complete) {
      last = await next.migration.migrate(() => false);
      slices++;
    }
    migrating = false;
    await searches;
    expect(slices).toBeGreaterThan(10);
    expect(answers.length).toBeGreaterThan(slices);
    for (const answer of answers) expect(answer).toEqual(answerBefore);

    const [rebuilt, built] = [await contents(at(NEXT), NEXT, { markers: false }), await freshBuild(NEXT, [A, B, C, D, E])];
    expect(rebuilt.search_resources).toHaveLength(3 * 24 - 2 + 3);
    const extra = expectSameIndex(rebuilt, built);
    const deletedWords = new Set((await previous.query<{ word: string }>('SELECT word FROM search_postings p JOIN search_resources r USING (seq) WHERE r.id = $1', [a[0]!.id])).rows.map((row) => row.word));
    expect(extra.length).toBeGreaterThan(0);
    for (const word of extra) expect(deletedWords).toContain(word);

    // The product's search answers from the new version.
    const search = await new PostgresSearchIndex(at(NEXT)).search(A, compileSearchApiPattern(new QueryParameters(new Map([['text.en', ['during']]])), resourceJsonSchema()));
    expect(search).toMatchObject({ ids: [updatedEarly.id, updatedLate.id].sort(), total: 2 });
  });

  it('drops the previous version once retired, and migrates no more', async () => {
    const next = versionOn(at(NEXT), NEXT);
    expect(await next.versions.retire()).toEqual([1]);
    const { rows } = await at(NEXT).query("SELECT to_regclass('public.search_resources') AS previous, version, ready FROM public.search_index_versions");
    expect(rows).toEqual([{ previous: null, version: NEXT, ready: true }]);
    expect(await next.migration.migrate()).toEqual({ complete: true, indexed: 0 });
    expect(await next.versions.retire()).toEqual([]);
  });
});

describe('a deploy rolled back during the rebuild', () => {
  it('leaves the rebuild to go over every project again when the release is deployed again', async () => {
    const run = randomUUID().slice(0, 8);
    const [P, Q] = [`versions-p-${run}`, `versions-q-${run}`];
    const at = await database();
    const held = await previousVersion(at(1), [P, Q], 8);
    const next = versionOn(at(NEXT), NEXT);
    let last;
    do last = await next.migration.migrate(() => false);
    while (last.rebuild?.done === 0);
    expect(last).toMatchObject({ complete: false, rebuild: { done: 1, projects: 2 } });

    // The code before serves again: it migrates (nothing to do), and its stream writes version 1 only.
    expect(await versionOn(at(1), 1).migration.migrate()).toEqual({ complete: true, indexed: 0 });
    const [first, second] = held.get(P)!;
    const updated = await table.update(P, first!.id, 1, { someProperty: 'rolled back' });
    await table.delete(P, second!.id);
    await writeV1(at(1), [put(P, updated), { kind: 'delete', projectKey: P, id: second!.id, version: 1 }]);

    do last = await next.migration.migrate(() => false);
    while (!last.complete);
    expectSameIndex(await contents(at(NEXT), NEXT, { markers: false }), await freshBuild(NEXT, [P, Q]));
  });
});

describe('the deploy\'s steps, as the indexer takes them', () => {
  it('migrate in slices until complete, then retire; a stream batch writes the current version', async () => {
    const at = await database();
    // A newer version serves (a deploy rolled back after its retire): this code's version is rebuilt from it.
    const NEWER = SEARCH_INDEX_VERSION + 1;
    const newer = versionOn(at(NEWER), NEWER);
    await newer.migration.migrate();
    const R = `versions-r-${randomUUID().slice(0, 8)}`;
    const created = [await table.create(R, draft(1) as never), await table.create(R, draft(2) as never)];
    await newer.writer.apply(created.map((resource) => put(R, resource)));

    const url = new URL(local.searchDatabaseUrl);
    url.pathname = `/${databases.at(-1)}`;
    Object.assign(process.env, { SEARCH_DATABASE_URL: url.toString(), TABLE_NAME: local.tableName, AWS_ENDPOINT_URL_DYNAMODB: local.dynamoDbEndpoint, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
    const { handler } = await import('../../functions/index-changes/handler');
    const { searchPool, indexingPool } = await import('../../shared/composition-root');
    pools.push(searchPool(), indexingPool());
    // Out of time at once: one batch per invocation.
    const outOfTime = { getRemainingTimeInMillis: () => 0 };
    const step = (RequestType: 'Create' | 'Update', Step: string) =>
      handler({ RequestType, ResourceProperties: { ServiceToken: 'arn', Step } } as unknown as Parameters<typeof handler>[0] & { RequestType: string }, outOfTime);
    expect(await step('Create', 'migrate')).toEqual({ PhysicalResourceId: 'search-index', IsComplete: false });
    expect(await step('Create', 'migrate')).toEqual({ PhysicalResourceId: 'search-index', IsComplete: true });
    expect(await step('Update', 'retire')).toEqual({ PhysicalResourceId: 'search-index-retired', IsComplete: true });

    const current = at(SEARCH_INDEX_VERSION);
    const ids = async () => (await current.query<{ id: string }>('SELECT id FROM search_resources WHERE project_key = $1 AND NOT deleted ORDER BY id', [R])).rows.map((row) => row.id);
    expect(await ids()).toEqual(created.map((resource) => resource.id));
    expect((await current.query(`SELECT to_regnamespace('${schemaOf(NEWER)}') AS newer`)).rows).toEqual([{ newer: null }]);
    const third = await table.create(R, draft(3) as never);
    const { marshall } = await import('@aws-sdk/util-dynamodb');
    await handler({ Records: [{ dynamodb: { SequenceNumber: '1', NewImage: marshall({ pk: `PROJECT#${R}`, sk: `RESOURCE#${third.id}`, ...third }, { removeUndefinedValues: true }) } }] });
    expect(await ids()).toEqual([...created, third].map((resource) => resource.id));
  });
});

describe('a migration that fails', () => {
  it('throws, leaves nothing of the new version, and the version that serves stays ready', async () => {
    const at = await database();
    const serving = versionOn(at(1), 1);
    expect(await serving.migration.migrate()).toEqual({ complete: true, indexed: 0 });
    const broken = versionOn(at(NEXT), NEXT, [...SEARCH_SCHEMA, 'CREATE INDEX search_broken ON search_resources (no_such_column)']);
    await expect(broken.migration.migrate()).rejects.toThrow(/no_such_column/);
    const { rows } = await at(1).query(`SELECT to_regnamespace('${schemaOf(NEXT)}') AS schema, array_agg(version) AS versions FROM public.search_index_versions WHERE ready`);
    expect(rows).toEqual([{ schema: null, versions: [1] }]);
    await expect(broken.versions.retire()).rejects.toThrow(`Search index version ${NEXT} is not ready`);
  });
});

describe('the version of the search index', () => {
  it('is raised whenever its tables or what a resource projects to change', async () => {
    const at = await database();
    const current = versionOn(at(SEARCH_INDEX_VERSION), SEARCH_INDEX_VERSION);
    await current.migration.migrate();
    const fixed = (n: number, objectTypeProperty: unknown, fields: Record<string, unknown> = {}) =>
      ({ id: `01900000-0000-7000-8000-00000000000${n}`, version: n, createdAt: '2026-01-01T00:00:00.000Z', lastModifiedAt: '2026-01-02T00:00:00.000Z', objectTypeProperty, ...fields }) as Resource;
    const example = (file: string) => JSON.parse(readFileSync(new URL(`../fixtures/examples/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
    await current.writer.apply([
      put('fingerprint', fixed(1, example('object-test-type-draft.json').objectTypeProperty, { key: 'first-key', someProperty: 'Ünïcode text, 42 words' })),
      put('fingerprint', fixed(2, example('array-test-type-custom-1.json'))),
      put('fingerprint', fixed(3, example('array-test-type-custom-2.json'), { key: 'x'.repeat(300) })),
      { kind: 'delete', projectKey: 'fingerprint', id: fixed(4, {}).id, version: 4 },
    ]);
    const fingerprint = createHash('sha256')
      .update(JSON.stringify({ schema: SEARCH_SCHEMA, contents: await contents(at(SEARCH_INDEX_VERSION), SEARCH_INDEX_VERSION) }))
      .digest('hex');
    const recorded = FINGERPRINTS[SEARCH_INDEX_VERSION];
    expect(
      fingerprint,
      recorded === undefined
        ? `Record the fingerprint of search index version ${SEARCH_INDEX_VERSION} in FINGERPRINTS (this file): ${fingerprint}`
        : `The search index's tables or what a resource projects to changed, and SEARCH_INDEX_VERSION is still ${SEARCH_INDEX_VERSION}: raise it to ${SEARCH_INDEX_VERSION + 1} (shared/store/postgres/search-schema.ts), so that the deploy rebuilds the index, and record ${SEARCH_INDEX_VERSION + 1}: '${fingerprint}' in FINGERPRINTS (this file).`,
    ).toBe(recorded);
  });
});
