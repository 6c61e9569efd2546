import { Signer } from '@aws-sdk/rds-signer';
import pg from 'pg';
import type { SearchDatabaseSettings } from '../config';
import { SEARCH_INDEX_VERSION, searchPathOf } from '../store/postgres/search-schema';

/**
 * The search engine's connection pool, created once per process by the composition root. Locally
 * a URL with a password; in AWS the user signs in with an IAM token (15 minutes valid, asked for
 * each new connection), over TLS, which the cluster requires for IAM sign-in. Every connection
 * reads and writes one version of the index (its `search_path`), so the SQL names no schema.
 */
export function createPostgresPool(settings: SearchDatabaseSettings, version = SEARCH_INDEX_VERSION): pg.Pool {
  // One connection per Lambda instance is all a function uses; locally one process serves every handler.
  const common = { max: 'url' in settings ? 10 : 1, idleTimeoutMillis: 60_000, connectionTimeoutMillis: 5_000, options: `-c search_path=${searchPathOf(version)}` };
  const pool = 'url' in settings ? new pg.Pool({ connectionString: settings.url, ...common }) : iamPool(settings, common);
  // An idle connection the engine drops (a pausing cluster, a restart) is an 'error' event: without
  // a listener it would end the process. The pool discards it; the next query connects anew.
  pool.on('error', () => undefined);
  return pool;
}

function iamPool(settings: Exclude<SearchDatabaseSettings, { url: string }>, common: pg.PoolConfig): pg.Pool {
  const signer = new Signer({ hostname: settings.host, port: settings.port, username: settings.user });
  return new pg.Pool({
    ...common,
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
    password: () => signer.getAuthToken(),
    // Lambda's runtime trusts the RDS certificate authorities when NODE_EXTRA_CA_CERTS names its bundle.
    ssl: { rejectUnauthorized: true },
  });
}
