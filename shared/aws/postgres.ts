import { Signer } from '@aws-sdk/rds-signer';
import pg from 'pg';
import type { SearchDatabaseSettings } from '../config';
import { SEARCH_INDEX_VERSION, searchPathOf } from '../store/postgres/search-schema';

/** What a pool serves: searches (the reader) give up soon; indexing (the writer) may wait through a resume. */
export type SearchEngineUse = 'search' | 'indexing';

/**
 * Per use: the wait for a connection — Aurora resumes in about 15 s, so a search answers 503 with
 * Retry-After after 2 s instead of holding its instance (a burst of searches would hold them all),
 * while a batch of the indexer waits the resume out — and each statement's longest run, in the
 * engine (statement_timeout) and in the driver (a frozen engine answers nothing at all).
 */
export const SEARCH_ENGINE_TIMEOUTS: Record<SearchEngineUse, { connectMs: number; statementMs: number }> = {
  search: { connectMs: 2_000, statementMs: 6_000 },
  indexing: { connectMs: 20_000, statementMs: 30_000 },
};

/** The pool closes a connection idle this long: before the engine's idle_session_timeout (60 s, infra/search-database-users.ts) does. */
export const POOL_IDLE_TIMEOUT_MS = 30_000;

/**
 * The search engine's connection pool for one use, created once per process by the composition
 * root. Locally a URL with a password; in AWS the user signs in with an IAM token (15 minutes
 * valid, asked for each new connection), over TLS, which the cluster requires for IAM sign-in.
 * Every connection reads and writes one version of the index (its `search_path`), so the SQL names no schema.
 */
export function createPostgresPool(settings: SearchDatabaseSettings, use: SearchEngineUse, version = SEARCH_INDEX_VERSION): pg.Pool {
  const { connectMs, statementMs } = SEARCH_ENGINE_TIMEOUTS[use];
  // One connection per Lambda instance is all a function uses; locally one process serves every handler.
  const common = {
    max: 'url' in settings ? 10 : 1,
    idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS,
    connectionTimeoutMillis: connectMs,
    statement_timeout: statementMs,
    query_timeout: statementMs,
    options: `-c search_path=${searchPathOf(version)}`,
  };
  const pool = 'url' in settings ? new pg.Pool({ connectionString: settings.url, ...common }) : iamPool(settings, common);
  // An idle connection the engine drops (a pausing cluster, a restart) is an 'error' event: without
  // a listener it would end the process. The pool discards it; the next query connects anew.
  pool.on('error', () => undefined);
  return neverStale(pool);
}

function iamPool({ host, port, database, user }: Exclude<SearchDatabaseSettings, { url: string }>, common: pg.PoolConfig): pg.Pool {
  const signer = new Signer({ hostname: host, port, username: user });
  // TLS verified: Lambda's runtime trusts the RDS certificate authorities when NODE_EXTRA_CA_CERTS names its bundle.
  return new pg.Pool({ ...common, host, port, database, user, password: () => signer.getAuthToken(), ssl: { rejectUnauthorized: true } });
}

/**
 * A connection idle past the pool's idle timeout is closed, never handed out: its timer could not
 * fire while Lambda froze the instance, and the engine has likely closed it meanwhile (its close
 * would reach the pool only after the next search took the connection: a 503 for nothing).
 */
function neverStale(pool: pg.Pool): pg.Pool {
  const idleSince = new WeakMap<pg.PoolClient, number>();
  pool.on('release', (_error, client) => idleSince.set(client, Date.now()));
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const fresh = async (): Promise<pg.PoolClient> => {
    for (;;) {
      const client = await connect();
      if (Date.now() - (idleSince.get(client) ?? Date.now()) < POOL_IDLE_TIMEOUT_MS) return client;
      client.release(true);
    }
  };
  // pool.query takes a connection through the callback form.
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: pg.PoolClient['release']) => void) => {
    if (!callback) return fresh();
    fresh().then((client) => callback(undefined, client, client.release), (error: Error) => callback(error));
  }) as typeof pool.connect;
  return pool;
}
