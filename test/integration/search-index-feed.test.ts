import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { startChangeStream } from '../../local/change-stream';
import { ensureTable } from '../../local/dynamodb-local';
import { createPostgresPool } from '../../shared/aws/postgres';
import { creationOrderedId } from '../../shared/domain/resource-id';
import type { Resource } from '../../shared/domain/resource';
import { SearchIndexing, type ReindexSizes } from '../../shared/services/search-indexing';
import { resourceKey } from '../../shared/store/dynamodb/keys';
import { DynamoDbResourceQueryStore } from '../../shared/store/dynamodb/resource-query-store';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { PostgresSearchIndexContents } from '../../shared/store/postgres/search-index-contents';
import { PostgresSearchIndexWriter } from '../../shared/store/postgres/search-index-writer';
import type { ResourceQueryStore } from '../../shared/store/resource-store';
import { call, draftExample, tokenFor } from './api-client';

/**
 * The search index's feed on the local stack's engines: its stream reader keeps the index, the
 * reindex rebuilds it beside the stream, and neither retries nor races bring back an older version
 * or a deleted resource. The index is read directly (search_resources), not through search.
 */
const dataDir = inject('dataDir');
const local = JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8')) as { dynamoDbEndpoint: string; tableName: string; searchDatabaseUrl: string };
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: local.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  { marshallOptions: { removeUndefinedValues: true } },
);
const resources = new DynamoDbResourceStore(documents, local.tableName);
const queries = new DynamoDbResourceQueryStore(documents, local.tableName);
const engine = createPostgresPool({ url: local.searchDatabaseUrl }, 'indexing');
const writer = new PostgresSearchIndexWriter(engine);
const reindexing = (sizes?: ReindexSizes, table: ResourceQueryStore = queries) => new SearchIndexing(table, writer, new PostgresSearchIndexContents(engine), sizes);

/**
 * Between this process's handler and the stack's PostgreSQL: up, a plain relay; down, every
 * connection refused, as an engine that is stopped or unreachable.
 */
let engineSwitch: { up: boolean; refused: number; url: string; server: Server; sockets: Set<Socket> };

beforeAll(async () => {
  const target = new URL(local.searchDatabaseUrl);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (!engineSwitch.up) {
      engineSwitch.refused++;
      return void client.destroy();
    }
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = new URL(local.searchDatabaseUrl);
  url.host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  engineSwitch = { up: true, refused: 0, url: url.toString(), server, sockets };
  // The handler under test, in this process, reaches the engine through the switch.
  process.env.SEARCH_DATABASE_URL = engineSwitch.url;
});

afterAll(async () => {
  const { closeSearchPools } = await import('../../shared/composition-root');
  await closeSearchPools();
  for (const socket of engineSwitch.sockets) socket.destroy();
  await new Promise((done) => engineSwitch.server.close(done));
  await engine.end();
});

const handler = async () => (await import('../../functions/index-changes/handler')).handler;

interface Row {
  id: string;
  version: number;
  deleted: boolean;
  /** The words the index holds for the resource: none once it is deleted. */
  words: string[];
}

async function indexRow(projectKey: string, id: string): Promise<Row | undefined> {
  const { rows } = await engine.query<Row>(
    `SELECT id, version, deleted, array(SELECT word FROM search_postings p WHERE p.project_key = r.project_key AND p.seq = r.seq ORDER BY word) AS words
     FROM search_resources r WHERE project_key = $1 AND id = $2`,
    [projectKey, id],
  );
  return rows[0];
}

/** What the index shows of a project: id → version of each resource not deleted. */
async function indexed(projectKey: string): Promise<Map<string, number>> {
  const { rows } = await engine.query<Row>('SELECT id, version FROM search_resources WHERE project_key = $1 AND NOT deleted', [projectKey]);
  return new Map(rows.map(({ id, version }) => [id, version]));
}

/** What the table holds of a project: id → version. */
async function inTable(projectKey: string, table: ResourceQueryStore = queries): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  for await (const resource of table.read(projectKey, { range: { on: 'id', descending: false } })) held.set(resource.id, resource.version);
  return held;
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string, withinMs = 5_000): Promise<T> {
  for (const started = Date.now(); ; ) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() - started > withinMs) throw new Error(`still waiting for ${what}: ${JSON.stringify(value instanceof Map ? [...value] : value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const uniqueProject = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}`;
const create = (projectKey: string, store = resources) => store.create(projectKey, { objectTypeProperty: draftExample.objectTypeProperty as never });
const sameEntries = (a: Map<string, number>, b: Map<string, number>) => a.size === b.size && [...a].every(([id, version]) => b.get(id) === version);

/** An entry the index holds of a resource the table never had (one deleted while the feed was broken). */
async function staleEntry(projectKey: string, like: Resource): Promise<string> {
  const id = creationOrderedId(new Date().toISOString());
  await writer.apply([{ kind: 'put', projectKey, resource: { ...like, id, version: 3 } }]);
  return id;
}

describe('the stream feed', () => {
  it('takes a create, an update and a delete through the API into the index within 5 s', async () => {
    const project = 'search-feed';
    const token = await tokenFor();
    const created = await call('POST', `/${project}/resource`, { token, json: { objectTypeProperty: draftExample.objectTypeProperty } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await until(() => indexRow(project, id), (row) => row?.version === 1 && !row.deleted, 'the create');

    const update = { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'changed' }] };
    expect((await call('POST', `/${project}/resource/${id}`, { token, json: update })).status).toBe(200);
    const updated = await until(() => indexRow(project, id), (row) => row?.version === 2, 'the update');
    expect(updated!.words).toContain('changed');

    expect((await call('DELETE', `/${project}/resource/${id}?version=2`, { token })).status).toBe(200);
    const deleted = await until(() => indexRow(project, id), (row) => row?.deleted === true, 'the delete');
    expect(deleted).toMatchObject({ version: 2, words: [] });
  });

  it('takes a resource holding an empty map, and the writes after it, into the index', async () => {
    // DynamoDB Local's stream writes an empty map as `{}`; unread, it would stop the shard for good.
    const project = 'search-feed';
    const token = await tokenFor();
    const empty = await call('POST', `/${project}/resource`, { token, json: { objectTypeProperty: {} } });
    const next = await call('POST', `/${project}/resource`, { token, json: { objectTypeProperty: draftExample.objectTypeProperty } });
    expect([empty.status, next.status]).toEqual([201, 201]);
    await until(() => indexRow(project, empty.body.id as string), (row) => row?.version === 1, 'the resource with an empty map');
    await until(() => indexRow(project, next.body.id as string), (row) => row?.version === 1, 'the create after it');
  });

  it('keeps the newest version through batches given twice and older batches given late', async () => {
    const table = `${local.tableName}-retries-${Date.now()}`;
    await ensureTable(local.dynamoDbEndpoint, table);
    const store = new DynamoDbResourceStore(documents, table);
    const project = uniqueProject('retries');
    const item = async (id: string) => marshall((await documents.send(new GetCommand({ TableName: table, Key: resourceKey(project, id) }))).Item!, { removeUndefinedValues: true });
    // The images the stream carries for a create, an update and the delete.
    const resource = await store.create(project, { objectTypeProperty: draftExample.objectTypeProperty as never });
    const created = { dynamodb: { SequenceNumber: '1', NewImage: await item(resource.id) } };
    await store.update(project, resource.id, 1, { someProperty: 'changed' });
    const updated = { dynamodb: { SequenceNumber: '2', NewImage: await item(resource.id) } };
    const deleted = { dynamodb: { SequenceNumber: '3', OldImage: updated.dynamodb.NewImage } };
    const consume = await handler();

    await consume({ Records: [created, updated] });
    await consume({ Records: [created, updated] });
    await consume({ Records: [created] });
    expect(await indexRow(project, resource.id)).toMatchObject({ version: 2, deleted: false, words: expect.arrayContaining(['changed']) });

    await consume({ Records: [deleted] });
    await consume({ Records: [created, updated] });
    await consume({ Records: [updated] });
    await consume({ Records: [created, updated, deleted] });
    expect(await indexRow(project, resource.id)).toMatchObject({ version: 2, deleted: true, words: [] });
  });

  it('loses nothing while the engine is down for more attempts than a mapping of 10 retries makes: the batches come again until it is back', async () => {
    const table = `${local.tableName}-engine-down-${Date.now()}`;
    const streamArn = await ensureTable(local.dynamoDbEndpoint, table);
    const store = new DynamoDbResourceStore(documents, table);
    const project = uniqueProject('engine-down');
    const consume = await handler();
    const { indexChanges } = await import('../../functions/index-changes/function');
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const givenUp: unknown[] = [];
    engineSwitch.up = false;
    // The engine's pool keeps connections: those made before are cut too.
    for (const socket of engineSwitch.sockets) socket.destroy();
    const refusedBefore = engineSwitch.refused;
    const stream = startChangeStream({
      consumer: indexChanges.name,
      reading: indexChanges.tableStream!,
      streamsEndpoint: local.dynamoDbEndpoint,
      streamArn,
      table: { db: documents, tableName: table },
      consume: (event) => consume({ Records: event.Records as never }),
      onFailure: async (record) => void givenUp.push(record),
    });
    try {
      // 100 changes meanwhile: creates, updates and deletes.
      const live = new Map<string, number>();
      for (let step = 0; step < 100; step++) {
        const id = [...live.keys()][(step * 7) % Math.max(1, live.size)];
        if (step % 5 < 3 || live.size < 5) live.set((await create(project, store)).id, 1);
        else if (step % 5 === 3) live.set(id!, (await store.update(project, id!, live.get(id!)!, { someProperty: `step ${step}` })).version);
        else {
          await store.delete(project, id!, live.get(id!));
          live.delete(id!);
        }
      }
      await until(async () => engineSwitch.refused - refusedBefore, (refused) => refused >= 12, 'the batch to be tried and refused more than 11 times', 60_000);
      expect(await indexed(project)).toEqual(new Map());
      expect(reported).toHaveBeenCalledWith(expect.stringContaining(`change stream (${indexChanges.name}): Error`));

      engineSwitch.up = true;
      expect(await inTable(project, new DynamoDbResourceQueryStore(documents, table))).toEqual(live);
      await until(() => indexed(project), (held) => sameEntries(held, live), 'the index to equal the table once the engine is back', 15_000);
      expect(givenUp).toEqual([]);
    } finally {
      engineSwitch.up = true;
      await stream.stop();
      reported.mockRestore();
    }
  }, 90_000);
});

describe('the reindex', () => {
  /** A project of `count` resources the stream has indexed, and stale entries among them. */
  async function projectWithStaleEntries(name: string, count: number, stale: number) {
    const projectKey = uniqueProject(name);
    const staleIds: string[] = [];
    const created: Resource[] = [];
    for (let index = 0; index < count; index++) {
      created.push(await create(projectKey));
      if (index % Math.ceil(count / stale) === 0 && staleIds.length < stale) staleIds.push(await staleEntry(projectKey, created[0]!));
    }
    await until(() => indexed(projectKey), (held) => created.every(({ id }) => held.get(id) === 1), 'the stream to index the project');
    return { projectKey, created, staleIds };
  }

  it('makes the index equal the table: missed writes put at their versions, entries of deleted resources removed', async () => {
    const { projectKey, created, staleIds } = await projectWithStaleEntries('reindex-repair', 12, 3);
    // Updates the feed missed: the index holds an older version of these.
    const missed = created.slice(0, 2).map(({ id }) => id);
    await engine.query('UPDATE search_resources SET version = 0 WHERE project_key = $1 AND id = ANY($2)', [projectKey, missed]);

    const progress = await reindexing({ batch: 5, window: 4 }).reindex(projectKey);

    expect(progress).toEqual({ projectKey, indexed: 12, removed: 3 });
    expect(await indexed(projectKey)).toEqual(await inTable(projectKey));
    for (const id of staleIds) expect(await indexRow(projectKey, id)).toMatchObject({ deleted: true, version: 3 });
  });

  it('goes on from its cursor, run after run, to the same result', async () => {
    const { projectKey, staleIds } = await projectWithStaleEntries('reindex-cursor', 10, 3);
    const indexing = reindexing({ batch: 2, window: 5 });
    let runs = 0;
    let cursor: string | undefined;
    let removed = 0;
    do {
      // Each run stops after its first batch, as one near its function's timeout: inside a window, so that
      // only the index entries the table read has passed may be marked deleted.
      const progress = await indexing.reindex(projectKey, { cursor, keepGoing: () => false });
      cursor = progress.cursor;
      removed += progress.removed;
      runs++;
    } while (cursor !== undefined && runs < 50);
    expect(cursor).toBeUndefined();
    expect(runs).toBeGreaterThan(3);
    expect(removed).toBe(staleIds.length);
    expect(await indexed(projectKey)).toEqual(await inTable(projectKey));
  });

  it('beside the stream, keeps what the stream writes meanwhile: a newer version, a delete, a resource created', async () => {
    const { projectKey, created } = await projectWithStaleEntries('reindex-races', 6, 1);
    const [updatedMeanwhile, deletedMeanwhile] = created;
    let createdMeanwhile: Resource | undefined;
    // The table as the reindex reads it; once it has read everything, and before it writes its
    // last batch and marks what it did not see, the stream indexes three writes.
    const racing: ResourceQueryStore = {
      ...queries,
      countResources: (key) => queries.countResources(key),
      async *read(key, read, firstReadSize) {
        yield* queries.read(key, read, firstReadSize);
        await resources.update(projectKey, updatedMeanwhile!.id, 1, { someProperty: 'newer' });
        await resources.delete(projectKey, deletedMeanwhile!.id, 1);
        createdMeanwhile = await create(projectKey);
        await until(
          () => indexed(projectKey),
          (held) => held.get(updatedMeanwhile!.id) === 2 && !held.has(deletedMeanwhile!.id) && held.has(createdMeanwhile!.id),
          'the stream to index the writes made during the reindex',
        );
      },
    };

    await reindexing({ batch: 100, window: 100 }, racing).reindex(projectKey);

    expect(await indexRow(projectKey, updatedMeanwhile!.id)).toMatchObject({ version: 2, deleted: false, words: expect.arrayContaining(['newer']) });
    expect(await indexRow(projectKey, deletedMeanwhile!.id)).toMatchObject({ deleted: true });
    expect(await indexRow(projectKey, createdMeanwhile!.id)).toMatchObject({ version: 1, deleted: false });
    expect(await indexed(projectKey)).toEqual(await inTable(projectKey));
  });

  it('beside a stream of writes and deletes, ends with the index equal to the table and nothing deleted back', async () => {
    const { projectKey, created, staleIds } = await projectWithStaleEntries('reindex-busy', 30, 4);
    const live = new Map(created.map((resource) => [resource.id, resource.version]));
    const deleted = new Set<string>(staleIds);
    let running = true;
    const writes = (async () => {
      for (let step = 0; running || step < 10; step++) {
        const ids = [...live.keys()];
        const id = ids[(step * 7) % ids.length]!;
        if (step % 3 === 0) {
          const resource = await create(projectKey);
          live.set(resource.id, 1);
        } else if (step % 3 === 1) {
          const resource = await resources.update(projectKey, id, live.get(id)!, { someProperty: `step ${step}` });
          live.set(id, resource.version);
        } else {
          await resources.delete(projectKey, id, live.get(id));
          live.delete(id);
          deleted.add(id);
        }
      }
    })();
    await reindexing({ batch: 3, window: 5 }).reindex(projectKey);
    running = false;
    await writes;

    const table = await inTable(projectKey);
    expect(table).toEqual(live);
    await until(() => indexed(projectKey), (held) => sameEntries(held, table), 'the index to equal the table', 10_000);
    for (const id of deleted) expect((await indexRow(projectKey, id))?.deleted).toBe(true);
  });

  it('runs as npm run search -- reindex --project p on the local stack', async () => {
    const { projectKey, staleIds } = await projectWithStaleEntries('reindex-cli', 3, 1);
    const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_DATA_DIR: dataDir };
    for (const name of ['TABLE_NAME', 'AWS_ENDPOINT_URL_DYNAMODB', 'SEARCH_DATABASE_URL']) delete env[name];
    const run = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/search-cli.ts', ...args], { env });

    const { stdout } = await run('reindex', '--project', projectKey);
    expect(stdout).toContain(`Reindexed project ${projectKey} (table ${local.tableName} at ${local.dynamoDbEndpoint}`);
    expect(stdout).toContain('3 resources indexed, 1 removed');
    expect(await indexRow(projectKey, staleIds[0]!)).toMatchObject({ deleted: true });
    await expect(run('reindex')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--project is required') });
  });
});
