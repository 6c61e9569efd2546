import { AUTO_PAUSE } from '../infra/constructs/search-engine';
import { SEARCH_WORK } from '../infra/search-connection-budget';
import { IDLE_SESSION_TIMEOUT_SECONDS } from '../infra/search-database-users';
import { POOL_IDLE_TIMEOUT_MS } from '../shared/aws/postgres';

/**
 * The cost model's prices and what it assumes where nothing is measured, apart from the bench that
 * measures the rest (bench/cost.ts): docs/performance.md renders the modelled figures from here.
 */
/**
 * AWS list prices (us-east-1, on-demand, read 2026-11) used by the cost model. Change them here.
 */
export const PRICES = {
  httpApiPerMillion: 1.0,
  lambdaRequestsPerMillion: 0.2,
  lambdaArmPerGbSecond: 0.0000133334,
  dynamoDbReadUnitPerMillion: 0.125,
  dynamoDbWriteUnitPerMillion: 0.625,
  /** Ingestion, standard log class; CloudWatch bills 26 bytes of overhead per log event. */
  cloudWatchLogsPerGb: 0.5,
  logEventOverheadBytes: 26,
  xRayTracesRecordedPerMillion: 5.0,
  dataTransferOutPerGb: 0.09,
  /** KMS requests with RSA 2048 keys (Sign), per 10,000. */
  kmsRsa2048RequestsPer10k: 0.03,
  s3PutPerThousand: 0.005,
  /** Aurora PostgreSQL Serverless v2, Aurora Standard storage (the search engine). */
  auroraAcuHour: 0.12,
  auroraStoragePerGbMonth: 0.1,
  auroraIoPerMillion: 0.2,
  secretsManagerSecretPerMonth: 0.4,
  cloudWatchAlarmMetricPerMonth: 0.1,
};

/** The memory every function gets (infra/constructs/endpoint-function.ts). */
export const FUNCTION_MEMORY_MB = 256;

/** The 80/20 mix priced per million calls: reads by id, and updates, each a change the search index takes. */
export const MIX = { reads: 0.8, writes: 0.2 };

/**
 * What the search engine's work takes, modelled, not measured (the cluster runs only in AWS): Aurora
 * bills ACU-seconds and I/O requests, which no local engine reports.
 */
export const SEARCH_ASSUMPTIONS = {
  /** One resource's rows (its resource row, postings, values and words) with their indexes. */
  indexKbPerResource: 4,
  /** An indexed change: one version-guarded upsert. */
  changeWriteIos: 10,
  changeAcuSeconds: 0.5 * 0.002,
  /** The indexer's batches (the stream hands over what came in since the last), and the time of one. */
  changesPerBatch: 10,
  indexerBatchMs: 30,
  /** A search that selects a page: its ids, total and facets from the indexes, mostly from cache. */
  searchAcuSeconds: SEARCH_WORK.acuSeconds,
  searchReadIos: 2,
  /** A facet or total over a whole project of 100,000 resources. */
  wholeProjectSearchAcuSeconds: 2 * 0.05,
  /** Capacity while awake, at least (a paused cluster resumes at it). */
  awakeAcu: 0.5,
  /** The metrics of search's alarms (infra/constructs/monitoring.ts): the cluster's 3, search's 503 rate 2, records set aside, the indexer's lag. */
  searchAlarmMetrics: 7,
};

/**
 * The search engine's cost, from SEARCH_ASSUMPTIONS at PRICES: at idle, unused (paused: storage, the
 * master secret, search's alarms) and in use (awake after each use until its connections close and
 * it has been idle for the pause delay), awake, per million changes indexed (engine and indexer
 * function) and per million searches (engine only: the search function is priced per call).
 */
export function searchCost(a = SEARCH_ASSUMPTIONS) {
  const M = 1e6;
  const acu = (seconds: number) => (seconds / 3600) * PRICES.auroraAcuHour;
  const io = (count: number) => (count / M) * PRICES.auroraIoPerMillion;
  const invocations = M / a.changesPerBatch;
  const change = {
    engineIo: io(M * a.changeWriteIos),
    engineAcu: acu(M * a.changeAcuSeconds),
    lambdaRequests: (invocations / M) * PRICES.lambdaRequestsPerMillion,
    lambdaCompute: invocations * (FUNCTION_MEMORY_MB / 1024) * (a.indexerBatchMs / 1000) * PRICES.lambdaArmPerGbSecond,
  };
  const search = (acuSeconds: number) => round(acu(M * acuSeconds) + io(M * a.searchReadIos), 2);
  // The last connection closes at most this long after the last statement: its pool's idle timeout,
  // or the engine's idle_session_timeout when Lambda froze the instance; then the pause delay runs.
  const awakeMinutesAfterUse = Math.max(POOL_IDLE_TIMEOUT_MS / 1000, IDLE_SESSION_TIMEOUT_SECONDS) / 60 + AUTO_PAUSE.toMinutes();
  return {
    assumptions: a,
    unusedUsdPerMonth: round(PRICES.secretsManagerSecretPerMonth + a.searchAlarmMetrics * PRICES.cloudWatchAlarmMetricPerMonth, 2),
    awakeMinutesAfterUse,
    usdPerUse: round(acu(awakeMinutesAfterUse * 60 * a.awakeAcu), 4),
    usedHourlyUsdPerMonth: round(PRICES.secretsManagerSecretPerMonth + a.searchAlarmMetrics * PRICES.cloudWatchAlarmMetricPerMonth + 730 * acu(awakeMinutesAfterUse * 60 * a.awakeAcu), 2),
    storageUsdPerMonthPer100kResources: round(((1e5 * a.indexKbPerResource) / 1024 ** 2) * PRICES.auroraStoragePerGbMonth, 3),
    awakeUsdPerHour: round(a.awakeAcu * PRICES.auroraAcuHour, 3),
    alwaysAwakeUsdPerMonth: round(a.awakeAcu * 730 * PRICES.auroraAcuHour, 2),
    usdPerMillionChanges: { ...(Object.fromEntries(Object.entries(change).map(([name, value]) => [name, round(value, 3)])) as Record<keyof typeof change, number>), total: round(Object.values(change).reduce((sum, value) => sum + value, 0), 2) },
    usdPerMillionSearches: { page: search(a.searchAcuSeconds), wholeProject: search(a.wholeProjectSearchAcuSeconds) },
  };
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
