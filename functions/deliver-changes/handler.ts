import { subscriptionDelivery } from '../../shared/composition-root';
import { resourceChangesOf, type StreamRecord } from '../../shared/store/dynamodb/stream-records';

/** How long one run of the retrier may go on: it runs every minute. */
const RETRY_RUN_MS = 45_000;

/**
 * The table's stream (a batch of records, in order per shard) or the schedule (no records: the
 * retrier). A batch answers the first record it could not handle, so that only it and those after
 * it are given again (ReportBatchItemFailures).
 */
export const handler = async (event: { Records?: StreamRecord[] }) => {
  if (!event.Records) return subscriptionDelivery().retryParked(Date.now() + RETRY_RUN_MS);
  const failed = await subscriptionDelivery().deliverChanges(resourceChangesOf(event.Records));
  return { batchItemFailures: failed === undefined ? [] : [{ itemIdentifier: failed }] };
};
