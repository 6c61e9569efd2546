import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { idempotencyKeyPrefix, projectPartition } from './keys';
import { TABLE_PARTITION_KEY, TABLE_SORT_KEY, TABLE_TTL_ATTRIBUTE } from './table-schema';

/**
 * Where Powertools keeps the records of a project's Idempotency-Keys: in the service's table, in
 * that project's partition (`pk = PROJECT#<projectKey>`, `sk = IDEMPOTENCY#<hash>`, keys.ts), so the
 * grants and local checks of `projects:write` cover them, no project reaches another's, and the
 * table's TTL removes them (`expiresAt`, epoch seconds). A layer per project: Powertools keys every
 * record of a layer under one partition value.
 */
export const idempotencyRecordsOf = (db: DynamoDBDocumentClient, tableName: string, projectKey: string) => ({
  persistenceStore: new DynamoDBPersistenceLayer({
    tableName,
    // The document client is the shared client (same middleware, timeouts and local grant checks);
    // Powertools sends it plain DynamoDB commands, which it passes on untranslated.
    awsSdkV3Client: db as unknown as DynamoDBClient,
    keyAttr: TABLE_PARTITION_KEY,
    sortKeyAttr: TABLE_SORT_KEY,
    staticPkValue: projectPartition(projectKey),
    expiryAttr: TABLE_TTL_ATTRIBUTE,
  }),
  keyPrefix: idempotencyKeyPrefix,
});

/** What makes a function idempotent for one project's requests (Powertools' persistence options). */
export type IdempotencyRecords = ReturnType<typeof idempotencyRecordsOf>;
