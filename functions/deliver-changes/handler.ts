import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshallOptions } from '../../shared/aws/clients';
import { subscriptionDelivery } from '../../shared/composition-root';
import type { TableChange } from '../../shared/domain/subscriptions/notification';

type Image = Record<string, AttributeValue>;
/** A stream record as Lambda hands it over, or as DynamoDB Streams' GetRecords answers it (local mode). */
export interface StreamRecord {
  dynamodb?: { SequenceNumber?: string; ApproximateCreationDateTime?: number | Date; NewImage?: unknown; OldImage?: unknown };
}

/** How long one run of the retrier may go on: it runs every minute. */
const RETRY_RUN_MS = 45_000;

/**
 * The table's stream (a batch of records, in order per shard) or the schedule (no records: the
 * retrier). A batch answers the first record it could not handle, so that only it and those after
 * it are given again (ReportBatchItemFailures).
 */
export const handler = async (event: { Records?: StreamRecord[] }) => {
  if (!event.Records) return subscriptionDelivery().retryParked(Date.now() + RETRY_RUN_MS);
  const failed = await subscriptionDelivery().deliverChanges(tableChangesOf(event.Records));
  return { batchItemFailures: failed === undefined ? [] : [{ itemIdentifier: failed }] };
};

/** Lambda's stream records (time in epoch seconds) or GetRecords' (a Date), as the domain reads them. */
export const tableChangesOf = (records: readonly StreamRecord[]): TableChange[] =>
  records.map(({ dynamodb: record = {} }) => ({
    sequenceNumber: record.SequenceNumber!,
    writtenAt: new Date(typeof record.ApproximateCreationDateTime === 'number' ? record.ApproximateCreationDateTime * 1000 : (record.ApproximateCreationDateTime ?? Date.now())).toISOString(),
    newImage: record.NewImage ? unmarshall(record.NewImage as Image, unmarshallOptions) : undefined,
    oldImage: record.OldImage ? unmarshall(record.OldImage as Image, unmarshallOptions) : undefined,
  }));
