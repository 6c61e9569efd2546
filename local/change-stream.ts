import { randomUUID } from 'node:crypto';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record, type AttributeValue } from '@aws-sdk/client-dynamodb-streams';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableStreamReading } from '../shared/http/declaration';
import type { StreamRecord } from '../shared/store/dynamodb/stream-records';

/** A shard with nothing new is read again after this long. */
const POLL_EVERY_MS = 100;
/** The longest wait before polling again after failures: an engine back up is read from within this. */
const FAILED_POLL_MAX_WAIT_MS = 2_000;
/** GetRecords answers at most this many records a call. */
const GET_RECORDS_LIMIT = 1_000;
/** The shards are listed again this often (a finished shard's children appear). */
const DESCRIBE_EVERY_MS = 1_000;
/** How long DynamoDB Streams keeps a record. */
const STREAM_RETENTION_MS = 24 * 3_600_000;

/** What the consumer answers for a batch: the first record it could not handle (Lambda's ReportBatchItemFailures). */
export type ConsumeBatch = (event: { Records: StreamRecord[] }) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

/**
 * What Lambda writes to an S3 on-failure destination for a batch it gave up: its coordinates, and
 * the event as a JSON string (https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html).
 */
function onFailureRecord(consumer: string, streamArn: string, shardId: string, records: StreamRecord[], condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded', attempts: number) {
  const [first, last] = [records[0]!.dynamodb!, records.at(-1)!.dynamodb!];
  const arrival = ({ ApproximateCreationDateTime: seconds }: typeof first) => new Date(seconds! * 1_000).toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    requestContext: { requestId: randomUUID(), functionArn: `arn:aws:lambda:local:000000000000:function:${consumer}`, condition, approximateInvokeCount: attempts },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: new Date().toISOString(),
    DDBStreamBatchInfo: { shardId, startSequenceNumber: first.SequenceNumber!, endSequenceNumber: last.SequenceNumber!, batchSize: records.length, streamArn,
      approximateArrivalOfFirstRecord: arrival(first), approximateArrivalOfLastRecord: arrival(last) },
    payload: JSON.stringify({ Records: records }),
  };
}
export type OnFailureRecord = ReturnType<typeof onFailureRecord>;

/** Where Lambda puts such a record in the bucket: `aws/lambda/<mapping>/<shard>/YYYY/MM/DD/YYYY-MM-DDTHH.MM.SS-<uuid>` (the same page). */
export function onFailureObjectKey(mapping: string, { timestamp, DDBStreamBatchInfo: { shardId } }: OnFailureRecord): string {
  const [day, time] = timestamp.split('T') as [string, string];
  return `aws/lambda/${mapping}/${shardId}/${day.replaceAll('-', '/')}/${day}T${time.slice(0, 8).replaceAll(':', '.')}-${randomUUID()}`;
}

export interface ChangeStreamOptions {
  streamsEndpoint: string;
  streamArn: string;
  /** The consumer's name: each consumer reads the stream at its own pace, from its own positions. */
  consumer: string;
  /** How the function declares its reading (batch size, batching window, retries), as its mapping in AWS. */
  reading: TableStreamReading;
  /** Where each shard's position is kept (an item per consumer and shard: `pk = STREAM_POSITION#<consumer>`). */
  table: { db: DynamoDBDocumentClient; tableName: string };
  consume: ConsumeBatch;
  /** The on-failure destination: takes each batch given up; none, it is logged. */
  onFailure?: (record: OnFailureRecord) => Promise<void>;
  /** Runs between polls (the retrier of parked notifications), at most every `everyMs`. */
  retry?: { run: () => Promise<unknown>; everyMs: number };
  /** How long a record may wait before it is given up with `retryAttempts: 'until-expired'`: the stream's 24 h, shorter in tests. */
  recordLifetimeMs?: number;
}

/**
 * Local mode's event source mapping: reads the table's stream from DynamoDB Local shard by shard
 * (a child shard after its parent), in order, and hands the consumer batches as the function's
 * declaration says (up to `batchSize` records, gathered for up to the batching window), shaped as
 * Lambda's. A shard's position is kept after each batch the consumer handled (and written to the
 * table for the next start), so a consumer that fails or stops mid-batch starts again after the
 * last batch it finished (at least once); a batch it failed part of is given again from the record
 * it named. A batch failed more than `retryAttempts` times, or whose records outlived the stream,
 * goes to the on-failure destination and the shard goes on after it, as in AWS.
 */
export function startChangeStream(options: ChangeStreamOptions): { stop(): Promise<void> } {
  const streams = new DynamoDBStreamsClient({ endpoint: options.streamsEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const { batchSize, batchingWindowSeconds, retryAttempts } = options.reading;
  const lifetimeMs = options.recordLifetimeMs ?? STREAM_RETENTION_MS;
  const iterators = new Map<string, string>();
  const finished = new Set<string>();
  const failing = new Map<string, { sequenceNumber: string; attempts: number }>();
  const positionKey = (shardId: string) => ({ pk: `STREAM_POSITION#${options.consumer}`, sk: shardId });
  let stopped = false;
  let lastRetry = 0;
  let shards: { ShardId?: string; ParentShardId?: string }[] = [];
  let describedAt = 0;

  // Each shard's position (the last record handled), kept here and written to the table behind the reading, one write
  // at a time, for the next start (written before the next batch, it waited behind the API's writes in DynamoDB Local).
  const positions = new Map<string, string>();
  const unsaved = new Set<string>();
  let saving: Promise<void> | undefined;
  function savePosition(shardId: string, last: StreamRecord): void {
    positions.set(shardId, last.dynamodb!.SequenceNumber!);
    unsaved.add(shardId);
    saving ??= (async () => {
      for (const shard of unsaved) {
        unsaved.delete(shard);
        await options.table.db.send(new PutCommand({ TableName: options.table.tableName, Item: { ...positionKey(shard), sequenceNumber: positions.get(shard) } }));
      }
    })()
      .catch((error: unknown) => console.error(`change stream (${options.consumer}): a position not written: ${String(error)}`))
      .finally(() => (saving = undefined));
  }

  async function firstIterator(shardId: string): Promise<string | undefined> {
    const recorded = async () => (await options.table.db.send(new GetCommand({ TableName: options.table.tableName, Key: positionKey(shardId), ConsistentRead: true }))).Item?.sequenceNumber as string | undefined;
    const after = positions.get(shardId) ?? (await recorded());
    const from = { StreamArn: options.streamArn, ShardId: shardId, ShardIteratorType: after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON', SequenceNumber: after } as const;
    return (await streams.send(new GetShardIteratorCommand(from))).ShardIterator;
  }

  /** Up to `batchSize` records from the shard's position: what is there now, or what comes within the batching window after the first. */
  async function readBatch(shardId: string): Promise<{ records: _Record[]; next?: string }> {
    let next = iterators.get(shardId) ?? (await firstIterator(shardId));
    const records: _Record[] = [];
    let windowEnds = Number.POSITIVE_INFINITY;
    while (next && records.length < batchSize && !stopped) {
      const limit = Math.min(GET_RECORDS_LIMIT, batchSize - records.length);
      const { Records = [], NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: next, Limit: limit }));
      next = NextShardIterator;
      if (records.length === 0 && Records.length > 0) windowEnds = Date.now() + batchingWindowSeconds * 1_000;
      records.push(...Records);
      if (records.length === 0) break;
      // Fewer than asked: nothing more for now; wait for more within the window.
      if (Records.length < limit) {
        if (Date.now() >= windowEnds) break;
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_EVERY_MS, windowEnds - Date.now())));
      }
    }
    return { records, next };
  }

  /** Reads and hands over one batch of the shard: how many records it read, or 'failed' when the consumer failed it. */
  async function pollShard(shardId: string): Promise<number | 'failed'> {
    const { records, next } = await readBatch(shardId);
    if (records.length > 0) {
      const batch = records.map((record) => asLambdaRecord(record, options.streamArn));
      let failedAt: string | undefined;
      try {
        failedAt = (await options.consume({ Records: batch })).batchItemFailures[0]?.itemIdentifier;
      } catch (error) {
        if (!stopped) console.error(`change stream (${options.consumer}): ${String(error)}`);
        failedAt = batch[0]!.dynamodb!.SequenceNumber;
      }
      const failed = failedAt === undefined ? -1 : Math.max(0, batch.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt));
      const handled = failed === -1 ? batch.length : failed + (await given(shardId, batch.slice(failed)));
      if (handled > 0) savePosition(shardId, batch[handled - 1]!);
      // Given again from the record it failed: a new iterator from the position kept.
      if (handled < batch.length) {
        iterators.delete(shardId);
        return 'failed';
      }
      failing.delete(shardId);
    }
    if (next) iterators.set(shardId, next);
    else finished.add(shardId);
    return records.length;
  }

  /** How many records of a batch's failed rest go to the on-failure destination: all after more than `retryAttempts` failures in a row, else those that outlived the stream. */
  async function given(shardId: string, rest: StreamRecord[]): Promise<number> {
    const sequenceNumber = rest[0]!.dynamodb!.SequenceNumber!;
    const before = failing.get(shardId);
    const attempts = before?.sequenceNumber === sequenceNumber ? before.attempts + 1 : 1;
    failing.set(shardId, { sequenceNumber, attempts });
    const exhausted = retryAttempts !== 'until-expired' && attempts > retryAttempts;
    const fresh = rest.findIndex((record) => Date.now() - record.dynamodb!.ApproximateCreationDateTime! * 1_000 < lifetimeMs);
    const expired = exhausted || fresh === -1 ? rest : rest.slice(0, fresh);
    if (expired.length === 0) return 0;
    const record = onFailureRecord(options.consumer, options.streamArn, shardId, expired, exhausted ? 'RetryAttemptsExhausted' : 'RecordAgeExceeded', attempts);
    if (options.onFailure) await options.onFailure(record);
    else console.error(`change stream (${options.consumer}): a batch given up after ${attempts} attempts: ${JSON.stringify(record.DDBStreamBatchInfo)}`);
    failing.delete(shardId);
    return expired.length;
  }

  /** One pass over the readable shards: 'busy' when a batch came full (more waits: read again at once), 'failed' when one failed. */
  async function poll(): Promise<'busy' | 'idle' | 'failed'> {
    if (Date.now() - describedAt >= DESCRIBE_EVERY_MS || shards.some((shard) => finished.has(shard.ShardId!))) {
      shards = (await streams.send(new DescribeStreamCommand({ StreamArn: options.streamArn }))).StreamDescription?.Shards ?? [];
      describedAt = Date.now();
    }
    const listed = new Set(shards.map((shard) => shard.ShardId));
    let outcome: 'busy' | 'idle' | 'failed' = 'idle';
    for (const shard of shards) {
      if (stopped) break;
      const parent = shard.ParentShardId;
      if (finished.has(shard.ShardId!) || (parent && listed.has(parent) && !finished.has(parent))) continue;
      const read = await pollShard(shard.ShardId!);
      if (read === 'failed') outcome = 'failed';
      else if (read >= batchSize && outcome === 'idle') outcome = 'busy';
    }
    if (options.retry && Date.now() - lastRetry >= options.retry.everyMs) {
      lastRetry = Date.now();
      await options.retry.run();
    }
    return outcome;
  }

  const running = (async () => {
    // Failures in a row: the wait after one doubles, up to FAILED_POLL_MAX_WAIT_MS.
    let failures = 0;
    while (!stopped) {
      const outcome = await poll().catch((error: unknown) => {
        // An engine failed: the shards start again from their recorded positions.
        iterators.clear();
        if (!stopped) console.error(`change stream (${options.consumer}): ${String(error)}`);
        return 'failed' as const;
      });
      failures = outcome === 'failed' ? failures + 1 : 0;
      if (outcome !== 'busy') await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_EVERY_MS * 2 ** failures, FAILED_POLL_MAX_WAIT_MS)));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await running;
      // The last positions written before the next start reads them (a write left failed is lost: at least once).
      while (saving) await saving;
      streams.destroy();
    },
  };
}

/**
 * A record of GetRecords as Lambda hands it over: its time in epoch seconds. DynamoDB Local's
 * stream also writes an empty map as `{}`, at any depth, where the table and DynamoDB Streams in
 * AWS write `{"M":{}}`: unreadable, such a record would stop its shard. Restored here.
 */
function asLambdaRecord({ dynamodb, ...record }: _Record, streamArn: string): StreamRecord {
  const image = (values?: Record<string, AttributeValue>) => values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, restored(value)]));
  const restored = (value: AttributeValue): AttributeValue =>
    value.M ? { M: image(value.M)! } : value.L ? { L: value.L.map(restored) } : Object.keys(value).length === 0 ? { M: {} } : value;
  const created = dynamodb?.ApproximateCreationDateTime;
  return {
    ...record,
    eventSourceARN: streamArn,
    dynamodb: { ...dynamodb, ApproximateCreationDateTime: created ? created.getTime() / 1_000 : Date.now() / 1_000, NewImage: image(dynamodb?.NewImage), OldImage: image(dynamodb?.OldImage) },
  } as StreamRecord;
}
