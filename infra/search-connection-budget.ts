/**
 * Aurora PostgreSQL Serverless v2's max_connections by maximum capacity, as documented (Aurora
 * User Guide, "Maximum connections for Aurora Serverless v2"), between the points in proportion;
 * at a minimum capacity of 0 or 0.5 ACU it is at most 2,000.
 */
const DOCUMENTED_MAX_CONNECTIONS: readonly (readonly [acu: number, connections: number])[] = [[1, 189], [4, 823], [8, 1669], [16, 3360], [32, 5000]];
const LOW_MINIMUM_MAX_CONNECTIONS = 2000;

/** Slots no function takes: PostgreSQL's and RDS's reserved ones (3 + 2) and the master user's at deploy. */
export const RESERVED_CONNECTIONS = 10;
/** Indexer instances at once: a stream shard each (one lane per shard), reindex and migration runs beside. */
export const INDEXER_CONCURRENCY = 10;
/**
 * Search instances at once, at most, by default: what Aurora's IAM sign-in throttle (about 200 new
 * connections a second) lets a burst of cold starts sign in within a second, and a fifth of
 * Lambda's default account quota of 1,000 (the account keeps at least 100 unreserved).
 */
export const SEARCH_CONCURRENCY_CAP = 200;
/** A search that selects a page: the function's time and the engine's work (bench/cost.ts prices it). */
export const SEARCH_WORK = { functionSeconds: 0.05, acuSeconds: 0.005 };

export type SearchConnectionBudget = ReturnType<typeof searchConnectionBudget>;

/**
 * How the search cluster's connections (`maxConnections`) are shared: one per function instance,
 * so the stack reserves each search function (`indexer`, `search`) this much concurrency and the
 * engine limits its user to it (infra/search-database-users.ts): searches can never take the
 * indexer's connections. `searchConcurrency` (`-c searchConcurrency`) replaces the default cap, up
 * to what is left. `searchesPerSecond`: page searches the instances serve, or the engine, the lesser.
 */
export function searchConnectionBudget(maxAcu: number, options: { minAcu?: number; searchConcurrency?: number } = {}) {
  const maxConnections = Math.min(auroraMaxConnections(maxAcu), (options.minAcu ?? 0) <= 0.5 ? LOW_MINIMUM_MAX_CONNECTIONS : Infinity);
  const left = maxConnections - RESERVED_CONNECTIONS - INDEXER_CONCURRENCY;
  if (options.searchConcurrency !== undefined && options.searchConcurrency > left) {
    throw new Error(`-c searchConcurrency=${options.searchConcurrency} is more than the ${left} connections a maximum of ${maxAcu} ACU leaves to search: raise -c searchMaxCapacity.`);
  }
  const search = options.searchConcurrency ?? Math.min(SEARCH_CONCURRENCY_CAP, left);
  const searchesPerSecond = Math.floor(Math.min(search / SEARCH_WORK.functionSeconds, maxAcu / SEARCH_WORK.acuSeconds));
  return { maxConnections, reserve: RESERVED_CONNECTIONS, indexer: INDEXER_CONCURRENCY, search, searchesPerSecond };
}

function auroraMaxConnections(maxAcu: number): number {
  const above = DOCUMENTED_MAX_CONNECTIONS.findIndex(([acu]) => acu >= maxAcu);
  if (above === -1) return DOCUMENTED_MAX_CONNECTIONS.at(-1)![1];
  if (above === 0) return DOCUMENTED_MAX_CONNECTIONS[0]![1];
  const [[acu0, connections0], [acu1, connections1]] = [DOCUMENTED_MAX_CONNECTIONS[above - 1]!, DOCUMENTED_MAX_CONNECTIONS[above]!];
  return Math.floor(connections0 + ((maxAcu - acu0) * (connections1 - connections0)) / (acu1 - acu0));
}
