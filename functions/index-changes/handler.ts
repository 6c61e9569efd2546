import { tableChangesOf, type StreamRecord } from '../../shared/aws/table-stream';
import { searchIndexWriter } from '../../shared/composition-root';
import type { TableChange } from '../../shared/domain/subscriptions/notification';
import { toResource } from '../../shared/store/dynamodb/resource-items';
import type { IndexChange } from '../../shared/store/search-index';

const PROJECT = /^PROJECT#(.+)$/;

/**
 * The table's stream, a batch of records in order per shard: each write of a resource becomes a
 * put (the resource as written) or a delete (the version it had); other items are passed over. The
 * batch is applied in one transaction, so a failure gives the whole batch again, which the index
 * takes as often as it comes (it keeps the newest version of each resource).
 */
export const handler = async (event: { Records: StreamRecord[] }) => {
  const changes = tableChangesOf(event.Records).map(indexChangeOf).filter((change) => change !== undefined);
  if (changes.length > 0) {
    await schemaReady();
    await searchIndexWriter().apply(changes);
  }
  return { batchItemFailures: [] };
};

// In AWS nothing else creates the index's tables: the writer, their owner, does, once per instance
// (idempotent); a try that fails fails the batch, and the next batch tries again.
let schema: Promise<void> | undefined;
const schemaReady = () =>
  (schema ??= searchIndexWriter()
    .ensureSchema()
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
