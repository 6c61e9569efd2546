import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record, type AttributeValue } from '@aws-sdk/client-dynamodb-streams';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const POLL_EVERY_MS = 100;
/** The longest wait before polling again after failures: an engine back up is read from within this. */
const FAILED_POLL_MAX_WAIT_MS = 2_000;

/** What the consumer answers for a batch: the first record it could not handle (Lambda's ReportBatchItemFailures). */
export type ConsumeBatch = (event: { Records: _Record[] }) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

export interface ChangeStreamOptions {
  streamsEndpoint: string;
  streamArn: string;
  /** The consumer's name: each consumer reads the stream at its own pace, from its own positions. */
  consumer: string;
  /** Where each shard's position is kept (an item per consumer and shard: `pk = STREAM_POSITION#<consumer>`). */
  table: { db: DynamoDBDocumentClient; tableName: string };
  consume: ConsumeBatch;
  /** Runs between polls (the retrier of parked notifications), at most every `everyMs`. */
  retry?: { run: () => Promise<unknown>; everyMs: number };
}

/**
 * Local mode's event source mapping: reads the table's stream from DynamoDB Local shard by shard
 * (a child shard after its parent), in order, and hands each batch to the consumer. A shard's
 * position is written to the table after each batch the consumer handled, so a consumer that fails
 * or stops mid-batch starts again after the last batch it finished (at least once, nothing lost); a
 * batch it failed part of is given again from the record it named.
 */
export function startChangeStream(options: ChangeStreamOptions): { stop(): Promise<void> } {
  const streams = new DynamoDBStreamsClient({ endpoint: options.streamsEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const iterators = new Map<string, string>();
  const finished = new Set<string>();
  const positionKey = (shardId: string) => ({ pk: `STREAM_POSITION#${options.consumer}`, sk: shardId });
  let stopped = false;
  let lastRetry = 0;

  async function firstIterator(shardId: string): Promise<string | undefined> {
    const { Item } = await options.table.db.send(new GetCommand({ TableName: options.table.tableName, Key: positionKey(shardId), ConsistentRead: true }));
    const after = Item?.sequenceNumber as string | undefined;
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: options.streamArn,
        ShardId: shardId,
        ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
        SequenceNumber: after,
      }),
    );
    return ShardIterator;
  }

  async function pollShard(shardId: string): Promise<void> {
    const iterator = iterators.get(shardId) ?? (await firstIterator(shardId));
    if (!iterator) return void finished.add(shardId);
    const { Records = [], NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
    if (Records.length > 0) {
      const { batchItemFailures } = await options.consume({ Records: Records.map(withEmptyMaps) });
      const failed = Records.findIndex((record) => record.dynamodb?.SequenceNumber === batchItemFailures[0]?.itemIdentifier);
      const handled = failed === -1 ? Records : Records.slice(0, failed);
      const last = handled.at(-1)?.dynamodb?.SequenceNumber;
      if (last) await options.table.db.send(new PutCommand({ TableName: options.table.tableName, Item: { ...positionKey(shardId), sequenceNumber: last } }));
      // Given again from the record it failed: a new iterator from the position just written.
      if (failed !== -1) return void iterators.delete(shardId);
    }
    if (NextShardIterator) iterators.set(shardId, NextShardIterator);
    else finished.add(shardId);
  }

  async function poll(): Promise<void> {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: options.streamArn }));
    const shards = StreamDescription?.Shards ?? [];
    const listed = new Set(shards.map((shard) => shard.ShardId));
    for (const shard of shards) {
      if (stopped) return;
      const parent = shard.ParentShardId;
      if (finished.has(shard.ShardId!) || (parent && listed.has(parent) && !finished.has(parent))) continue;
      await pollShard(shard.ShardId!);
    }
    if (options.retry && Date.now() - lastRetry >= options.retry.everyMs) {
      lastRetry = Date.now();
      await options.retry.run();
    }
  }

  const running = (async () => {
    // Failures in a row: the wait after one doubles, up to FAILED_POLL_MAX_WAIT_MS.
    let failures = 0;
    while (!stopped) {
      await poll().then(
        () => void (failures = 0),
        (error: unknown) => {
          // The consumer or an engine failed: the shards start again from their recorded positions.
          failures++;
          iterators.clear();
          if (!stopped) console.error(`change stream (${options.consumer}): ${String(error)}`);
        },
      );
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_EVERY_MS * 2 ** failures, FAILED_POLL_MAX_WAIT_MS)));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await running;
      streams.destroy();
    },
  };
}

/**
 * DynamoDB Local's stream writes an empty map as `{}`, at any depth, where the table and DynamoDB
 * Streams in AWS write `{"M":{}}`: unreadable, such a record would stop its shard. Restored here.
 */
function withEmptyMaps(record: _Record): _Record {
  const image = (values?: Record<string, AttributeValue>) => values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, restored(value)]));
  const restored = (value: AttributeValue): AttributeValue =>
    value.M ? { M: image(value.M)! } : value.L ? { L: value.L.map(restored) } : Object.keys(value).length === 0 ? { M: {} } : value;
  return record.dynamodb ? { ...record, dynamodb: { ...record.dynamodb, NewImage: image(record.dynamodb.NewImage), OldImage: image(record.dynamodb.OldImage) } } : record;
}
