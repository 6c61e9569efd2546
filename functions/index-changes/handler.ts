import { searchFeed, searchIndexing, searchIndexVersions } from '../../shared/composition-root';
import type { StreamRecord } from '../../shared/store/dynamodb/stream-records';
import type { ReplayProgress } from '../../shared/services/search-feed';
import type { ReindexProgress } from '../../shared/services/search-indexing';
import { searchIndexDeployStep, type SearchIndexDeployAnswer, type SearchIndexDeployEvent } from './search-index-deploy';

/** What a reindex, replay or migration run leaves of the function's time: enough to write its last batch and answer. */
const RUN_RESERVE_MS = 60_000;
type Context = { getRemainingTimeInMillis(): number };

/** `npm run search -- reindex` (scripts/search-cli.ts): one project, from a cursor; the answer says where to go on. */
export interface ReindexEvent {
  reindex: { projectKey: string; cursor?: string };
}

/** `npm run search -- replay`: what the failure destination keeps, from a cursor; the answer says where to go on. */
export interface ReplayEvent {
  replay: { cursor?: string };
}

/**
 * The table's stream, a batch of records in order per shard, into the index (SearchFeed): a batch
 * the engine did not answer fails, and the mapping gives it again until it is applied or expires;
 * a record that can never be indexed is set aside to the failure destination. The index takes a
 * change as often as it comes (it keeps the newest version of each resource).
 *
 * Or an operator's run (scripts/search-cli.ts), reindex or replay: only functions in the VPC reach
 * the engine. Or a step of the deploy (search-index-deploy.ts).
 */
export async function handler(event: { Records: StreamRecord[] }): Promise<{ batchItemFailures: [] }>;
export async function handler(event: ReindexEvent, context?: Context): Promise<ReindexProgress>;
export async function handler(event: ReplayEvent, context?: Context): Promise<ReplayProgress>;
export async function handler(event: SearchIndexDeployEvent, context?: Context): Promise<SearchIndexDeployAnswer>;
export async function handler(event: { Records: StreamRecord[] } | ReindexEvent | ReplayEvent | SearchIndexDeployEvent, context?: Context) {
  if ('RequestType' in event) return searchIndexDeployStep(event, timeLeft(context));
  if ('reindex' in event) return reindex(event, context);
  if ('replay' in event) return replay(event, context);
  await schemaReady();
  await searchFeed().apply(event.Records);
  return { batchItemFailures: [] };
}

async function reindex({ reindex: run }: ReindexEvent, context?: Context): Promise<ReindexProgress> {
  if (typeof run?.projectKey !== 'string' || run.projectKey === '' || (run.cursor !== undefined && typeof run.cursor !== 'string')) {
    throw new Error('A reindex event is { reindex: { projectKey: string, cursor?: string } }');
  }
  await schemaReady();
  return searchIndexing().reindex(run.projectKey, { cursor: run.cursor, keepGoing: timeLeft(context) });
}

async function replay({ replay: run }: ReplayEvent, context?: Context): Promise<ReplayProgress> {
  if (typeof run !== 'object' || run === null || (run.cursor !== undefined && typeof run.cursor !== 'string')) throw new Error('A replay event is { replay: { cursor?: string } }');
  await schemaReady();
  return searchFeed().replay({ cursor: run.cursor, keepGoing: timeLeft(context) });
}

/** Whether a run may go on: until the reserve, or half the time left when that is less (a short timeout still makes progress). */
function timeLeft(context?: Context): () => boolean {
  const reserve = context ? Math.min(RUN_RESERVE_MS, context.getRemainingTimeInMillis() / 2) : 0;
  return () => !context || context.getRemainingTimeInMillis() > reserve;
}

// The current version's tables exist before a batch or a reindex writes them: the writer, their
// owner, creates them once per instance (idempotent; the deploy's migration does too), even while
// the version is still being rebuilt. A try that fails fails the invocation, and the next one tries again.
let schema: Promise<unknown> | undefined;
const schemaReady = () =>
  (schema ??= searchIndexVersions()
    .prepare()
    .catch((error: unknown) => {
      schema = undefined;
      throw error;
    }));
