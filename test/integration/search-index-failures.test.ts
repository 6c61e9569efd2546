import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { onFailureObjectKey, startChangeStream, type ChangeStreamOptions, type OnFailureRecord } from '../../local/change-stream';
import { ensureTable } from '../../local/dynamodb-local';
import { createPostgresPool } from '../../shared/aws/postgres';
import type { TableStreamReading } from '../../shared/http/declaration';
import { RECORD_SET_ASIDE_MESSAGE } from '../../shared/services/search-feed';
import { resourceKey } from '../../shared/store/dynamodb/keys';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import type { StreamRecord } from '../../shared/store/dynamodb/stream-records';
import { draftExample } from './api-client';

/**
 * What the search index cannot take, on the local stack's engines: a record the engine refuses for
 * good is set aside to the failure destination (the stack's S3 bucket) and its batch goes on; the
 * local mapping gives a batch up as Lambda's does, with the batch; `npm run search -- replay`
 * indexes both once the cause is gone. The indexer runs in this process, on the stack's engines.
 */
const dataDir = inject('dataDir');
const local = JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8')) as {
  dynamoDbEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  searchDatabaseUrl: string;
  searchIndexFailuresBucket: string;
};
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: local.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  { marshallOptions: { removeUndefinedValues: true } },
);
const s3 = new S3Client({ endpoint: local.s3Endpoint, region: 'local', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
const engine = createPostgresPool({ url: local.searchDatabaseUrl }, 'indexing');
const Bucket = local.searchIndexFailuresBucket;

beforeAll(() => {
  // The handler under test, in this process, as the stack configures it.
  Object.assign(process.env, {
    SEARCH_DATABASE_URL: local.searchDatabaseUrl,
    SEARCH_INDEX_FAILURES_BUCKET: Bucket,
    AWS_ENDPOINT_URL_S3: local.s3Endpoint,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
});

afterAll(async () => {
  const { searchPool } = await import('../../shared/composition-root');
  await searchPool().end();
  await engine.end();
  s3.destroy();
});

const handler = async () => (await import('../../functions/index-changes/handler')).handler;

async function indexedVersion(projectKey: string, id: string): Promise<number | undefined> {
  const { rows } = await engine.query<{ version: number }>('SELECT version FROM search_resources WHERE project_key = $1 AND id = $2 AND NOT deleted', [projectKey, id]);
  return rows[0]?.version;
}

async function kept(key: string): Promise<Record<string, unknown> | undefined> {
  const answer = await s3.send(new GetObjectCommand({ Bucket, Key: key })).catch(() => undefined);
  return answer && (JSON.parse(await answer.Body!.transformToString()) as Record<string, unknown>);
}

/** A table of its own with `count` resources created in a project of its own, and their creates' stream records as Lambda hands them over. */
async function createdResources(name: string, count: number) {
  const tableName = `${local.tableName}-${name}-${Date.now()}`;
  const streamArn = await ensureTable(local.dynamoDbEndpoint, tableName);
  const store = new DynamoDbResourceStore(documents, tableName);
  const project = `${name}-${Math.random().toString(36).slice(2, 8)}`;
  const ids: string[] = [];
  const records: StreamRecord[] = [];
  for (let index = 0; index < count; index++) {
    const { id } = await store.create(project, { objectTypeProperty: draftExample.objectTypeProperty as never });
    const item = (await documents.send(new GetCommand({ TableName: tableName, Key: resourceKey(project, id) }))).Item!;
    ids.push(id);
    records.push({ dynamodb: { Keys: marshall(resourceKey(project, id)), SequenceNumber: `${Date.now()}${index}`, ApproximateCreationDateTime: Date.now() / 1000, NewImage: marshall(item, { removeUndefinedValues: true }) } });
  }
  return { tableName, streamArn, store, project, ids, records };
}

/** The engine refuses to index one resource, as it would a value it cannot store (a trigger of the test's); the answer lifts it. */
async function refusing(id: string): Promise<() => Promise<void>> {
  const name = `refuse_${id.replaceAll('-', '_')}`;
  await engine.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the engine cannot index ${id}'; END $$`);
  await engine.query(`CREATE TRIGGER ${name} BEFORE INSERT OR UPDATE ON search_resources FOR EACH ROW WHEN (NEW.id = '${id}') EXECUTE FUNCTION ${name}()`);
  return async () => {
    await engine.query(`DROP TRIGGER ${name} ON search_resources`);
    await engine.query(`DROP FUNCTION ${name}()`);
  };
}

/** The local mapping on a table, until `done` holds: what it gave up, and how often the consumer was called. */
async function mapping(tableName: string, streamArn: string, reading: TableStreamReading, consume: ChangeStreamOptions['consume'], done: (givenUp: OnFailureRecord[], invocations: number) => boolean, extra: Partial<ChangeStreamOptions> = {}) {
  const givenUp: OnFailureRecord[] = [];
  let invocations = 0;
  const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const stream = startChangeStream({
    consumer: 'index-changes',
    reading,
    streamsEndpoint: local.dynamoDbEndpoint,
    streamArn,
    table: { db: documents, tableName },
    consume: (event) => (invocations++, consume(event)),
    onFailure: async (record) => void givenUp.push(record),
    ...extra,
  });
  try {
    for (const started = Date.now(); !done(givenUp, invocations); ) {
      if (Date.now() - started > 20_000) throw new Error(`the mapping gave up ${givenUp.length} batches in 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await stream.stop();
    reported.mockRestore();
  }
  return { givenUp, invocations };
}

const failing = async (): Promise<never> => {
  throw new Error('the consumer fails');
};
const recordsOf = (givenUp: OnFailureRecord) => (JSON.parse(givenUp.payload) as { Records: StreamRecord[] }).Records;

describe('a record that can never be indexed', () => {
  it('is set aside to the failure destination with its content and why, and logged; the rest of its batch is indexed', async () => {
    const { project, ids, records } = await createdResources('defect', 3);
    const lift = await refusing(ids[1]!);
    const logged = vi.spyOn(process.stdout, 'write');
    try {
      expect(await (await handler())({ Records: records })).toEqual({ batchItemFailures: [] });
      expect(logged.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(RECORD_SET_ASIDE_MESSAGE))).toEqual([expect.stringContaining(ids[1]!)]);
    } finally {
      logged.mockRestore();
      await lift();
    }
    expect([await indexedVersion(project, ids[0]!), await indexedVersion(project, ids[1]!), await indexedVersion(project, ids[2]!)]).toEqual([1, undefined, 1]);
    const key = `set-aside/${records[1]!.dynamodb!.SequenceNumber}.json`;
    expect(await kept(key)).toEqual({ reason: expect.stringContaining(`the engine cannot index ${ids[1]}`), failedAt: expect.any(String), record: records[1] });
    await s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
  });
});

describe('the local mapping', () => {
  it("gives a batch that keeps failing up after retryAttempts: Lambda's on-failure record, with the batch; the shard goes on after it", async () => {
    const { tableName, streamArn, store, project, ids } = await createdResources('given-up', 2);
    const { givenUp, invocations } = await mapping(tableName, streamArn, { batchSize: 100, batchingWindowSeconds: 0, retryAttempts: 2 }, failing, (batches) => batches.length > 0);
    expect(invocations).toBe(3);
    expect(givenUp).toHaveLength(1);
    expect(givenUp[0]).toMatchObject({ requestContext: { condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 }, DDBStreamBatchInfo: { streamArn } });
    const records = recordsOf(givenUp[0]!);
    expect(givenUp[0]!.DDBStreamBatchInfo).toMatchObject({ batchSize: records.length, startSequenceNumber: records[0]!.dynamodb!.SequenceNumber, endSequenceNumber: records.at(-1)!.dynamodb!.SequenceNumber });
    expect(records.map((record) => (record.dynamodb!.NewImage as { id?: { S: string } }).id?.S).filter(Boolean)).toEqual(ids);

    // The next write is read after the batch given up, not before it.
    const next = await store.create(project, { objectTypeProperty: draftExample.objectTypeProperty as never });
    const seen: string[] = [];
    await mapping(tableName, streamArn, { batchSize: 100, batchingWindowSeconds: 0, retryAttempts: 2 }, async ({ Records }) => {
      seen.push(...Records.flatMap((record) => (record.dynamodb!.NewImage as { id?: { S: string } }).id?.S ?? []));
      return { batchItemFailures: [] };
    }, () => seen.includes(next.id));
    expect(seen).toEqual([next.id]);
  });

  it('with until-expired, retries a batch for as long as its records live, then gives up only those', async () => {
    const { tableName, streamArn } = await createdResources('expired', 1);
    const untilExpired: TableStreamReading = { batchSize: 100, batchingWindowSeconds: 0, retryAttempts: 'until-expired' };
    let writtenAt = 0;
    const failingAndNoting: ChangeStreamOptions['consume'] = async ({ Records }) => {
      writtenAt = Records[0]!.dynamodb!.ApproximateCreationDateTime! * 1_000;
      return failing();
    };
    const living = await mapping(tableName, streamArn, untilExpired, failingAndNoting, (_, invocations) => invocations >= 5);
    expect(living.givenUp).toEqual([]);

    // DynamoDB Local stamps records to the minute: their lifetime here ends 2 s from now.
    const recordLifetimeMs = Date.now() - writtenAt + 2_000;
    const { givenUp, invocations } = await mapping(tableName, streamArn, untilExpired, failing, (batches) => batches.length > 0, { recordLifetimeMs });
    expect(invocations).toBeGreaterThan(1);
    expect(givenUp[0]!.requestContext.condition).toBe('RecordAgeExceeded');
    expect(Date.parse(givenUp[0]!.timestamp) - writtenAt).toBeGreaterThanOrEqual(recordLifetimeMs);
  });
});

describe('npm run search -- replay', () => {
  it('indexes what the failure destination keeps, set aside by the indexer or given up by the mapping, once the cause is gone, and removes it', async () => {
    const { tableName, streamArn, project, ids, records } = await createdResources('replay', 3);
    // One record set aside while the engine refused it.
    const lift = await refusing(ids[0]!);
    await (await handler())({ Records: [records[0]!] });
    await lift();
    // The stream's batch given up by the mapping, as Lambda writes it to S3.
    const { givenUp } = await mapping(tableName, streamArn, { batchSize: 100, batchingWindowSeconds: 0, retryAttempts: 0 }, failing, (batches) => batches.length > 0);
    const onFailureKey = onFailureObjectKey('index-changes', givenUp[0]!);
    await s3.send(new PutObjectCommand({ Bucket, Key: onFailureKey, Body: JSON.stringify(givenUp[0]) }));
    const setAsideKey = `set-aside/${records[0]!.dynamodb!.SequenceNumber}.json`;
    expect(await kept(setAsideKey)).toBeDefined();
    expect(await Promise.all(ids.map((id) => indexedVersion(project, id)))).toEqual([undefined, undefined, undefined]);

    const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_DATA_DIR: dataDir };
    for (const name of ['TABLE_NAME', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_S3', 'SEARCH_DATABASE_URL', 'SEARCH_INDEX_FAILURES_BUCKET', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) delete env[name];
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/search-cli.ts', 'replay'], { env });

    expect(stdout).toMatch(/Replayed the search index's failures \(.*\): \d+ indexed and removed, 0 still failing, kept\./);
    expect(await Promise.all(ids.map((id) => indexedVersion(project, id)))).toEqual([1, 1, 1]);
    const left = (await s3.send(new ListObjectsV2Command({ Bucket }))).Contents?.map((object) => object.Key) ?? [];
    expect(left).not.toContain(setAsideKey);
    expect(left).not.toContain(onFailureKey);
  });
});
