import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { TableChange } from '../domain/subscriptions/notification';
import { unmarshallOptions } from './clients';

type Image = Record<string, AttributeValue>;

/** A stream record as Lambda hands it over, or as DynamoDB Streams' GetRecords answers it (local mode). */
export interface StreamRecord {
  dynamodb?: { SequenceNumber?: string; ApproximateCreationDateTime?: number | Date; NewImage?: unknown; OldImage?: unknown };
}

/** Lambda's stream records (time in epoch seconds) or GetRecords' (a Date), as the table's consumers read them. */
export const tableChangesOf = (records: readonly StreamRecord[]): TableChange[] =>
  records.map(({ dynamodb: record = {} }) => ({
    sequenceNumber: record.SequenceNumber!,
    writtenAt: new Date(typeof record.ApproximateCreationDateTime === 'number' ? record.ApproximateCreationDateTime * 1000 : (record.ApproximateCreationDateTime ?? Date.now())).toISOString(),
    newImage: record.NewImage ? unmarshall(record.NewImage as Image, unmarshallOptions) : undefined,
    oldImage: record.OldImage ? unmarshall(record.OldImage as Image, unmarshallOptions) : undefined,
  }));
