import { tableChangesOf, type StreamRecord } from '../../shared/aws/table-stream';
import { searchIndexing, searchIndexVersions, searchIndexWriter } from '../../shared/composition-root';
import type { TableChange } from '../../shared/domain/subscriptions/notification';
import { toResource } from '../../shared/store/dynamodb/resource-items';
import type { IndexChange } from '../../shared/store/search-index';
import type { ReindexProgress } from '../../shared/services/search-indexing';
import { searchIndexDeployStep, type SearchIndexDeployAnswer, type SearchIndexDeployEvent } from './search-index-deploy';

const PROJECT = /^PROJECT#(.+)$/;

/** What a reindex or migration run leaves of the function's time: enough to write its last batch and answer. */
const REINDEX_RESERVE_MS = 60_000;

/** `npm run search -- reindex` (scripts/search-cli.ts): one project, from a cursor; the answer says where to go on. */
export interface ReindexEvent {
  reindex: { projectKey: string; cursor?: string };
}

/**
 * The table's stream, a batch of records in order per shard: each write of a resource becomes a
 * put (the resource as written) or a delete (the version it had); other items are passed over. The
 * batch is applied in one transaction, so a failure gives the whole batch again, which the index
 * takes as often as it comes (it keeps the newest version of each resource).
 *
 * Or a reindex run, invoked by the operator CLI: only functions in the VPC reach the engine. Or a
 * step of the deploy (search-index-deploy.ts).
 */
export async function handler(event: { Records: StreamRecord[] }): Promise<{ batchItemFailures: [] }>;
export async function handler(event: ReindexEvent, context?: { getRemainingTimeInMillis(): number }): Promise<ReindexProgress>;
export async function handler(event: SearchIndexDeployEvent, context?: { getRemainingTimeInMillis(): number }): Promise<SearchIndexDeployAnswer>;
export async function handler(event: { Records: StreamRecord[] } | ReindexEvent | SearchIndexDeployEvent, context?: { getRemainingTimeInMillis(): number }) {
  if ('RequestType' in event) return searchIndexDeployStep(event, keepGoingWithin(context));
  if ('reindex' in event) return reindex(event, context);
  await schemaReady();
  const changes = tableChangesOf(event.Records).map(indexChangeOf).filter((change) => change !== undefined);
  if (changes.length > 0) await searchIndexWriter().apply(changes);
  return { batchItemFailures: [] };
}

async function reindex({ reindex: run }: ReindexEvent, context?: { getRemainingTimeInMillis(): number }): Promise<ReindexProgress> {
  if (typeof run?.projectKey !== 'string' || run.projectKey === '' || (run.cursor !== undefined && typeof run.cursor !== 'string')) {
    throw new Error('A reindex event is { reindex: { projectKey: string, cursor?: string } }');
  }
  await schemaReady();
  return searchIndexing().reindex(run.projectKey, { cursor: run.cursor, keepGoing: keepGoingWithin(context) });
}

/** Until the reserve is left, or half the time left when that is less (a short timeout still makes progress). */
function keepGoingWithin(context?: { getRemainingTimeInMillis(): number }): () => boolean {
  const reserve = context ? Math.min(REINDEX_RESERVE_MS, context.getRemainingTimeInMillis() / 2) : 0;
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

function indexChangeOf(change: TableChange): IndexChange | undefined {
  const item = change.newImage ?? change.oldImage;
  const projectKey = PROJECT.exec(String(item?.pk))?.[1];
  if (!item || projectKey === undefined || !String(item.sk).startsWith('RESOURCE#')) return undefined;
  if (change.newImage) return { kind: 'put', projectKey, resource: toResource(change.newImage) };
  return { kind: 'delete', projectKey, id: String(item.id), version: Number(item.version) };
}
