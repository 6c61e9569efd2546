import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GetPublicKeyCommand } from '@aws-sdk/client-kms';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDynamoDbClient } from '../../../shared/aws/clients';
import { createKmsClient } from '../../../shared/aws/kms';
import { DEADLINE_MARGIN_MS, withDeadline } from '../../../shared/aws/deadline';
import { REQUEST_HANDLER } from '../../../shared/aws/request-timeouts';
import { NoAnswerError } from '../../../shared/domain/errors';
import { createS3Client } from '../../../shared/aws/s3';

/** A server that takes connections and never answers: a black-holed connection, as the clients see it. */
async function blackHole(): Promise<{ server: Server; endpoint: string; connections: () => number }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  server.on('close', () => sockets.forEach((socket) => socket.destroy()));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => sockets.length };
}

const holes: Awaited<ReturnType<typeof blackHole>>[] = [];
const environment = { ...process.env };

beforeAll(async () => {
  for (let index = 0; index < 3; index++) holes.push(await blackHole());
  const [dynamoDb, s3, kms] = holes;
  Object.assign(process.env, {
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'AKIATIMEOUTS',
    AWS_SECRET_ACCESS_KEY: 'timeouts',
    AWS_ENDPOINT_URL_DYNAMODB: dynamoDb!.endpoint,
    AWS_ENDPOINT_URL_S3: s3!.endpoint,
    AWS_ENDPOINT_URL_KMS: kms!.endpoint,
  });
});

afterAll(() => {
  process.env = environment;
  for (const { server } of holes) server.close();
});

afterEach(() => vi.restoreAllMocks());

describe('an AWS call that is never answered gives up after REQUEST_HANDLER.requestTimeout per attempt, within the functions\' 10 s', () => {
  it('DynamoDB, S3 and KMS: TimeoutError after every attempt the SDK makes, each on a connection of its own', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0); // the SDK's backoff between attempts, left out
    const dynamoDb = createDynamoDbClient();
    const s3 = createS3Client();
    const kms = createKmsClient();
    const started = performance.now();
    const outcomes = await Promise.all([
      dynamoDb.send(new GetCommand({ TableName: 'timeouts', Key: { pk: 'a', sk: 'b' } })).catch((error: Error) => error),
      s3.send(new HeadObjectCommand({ Bucket: 'timeouts', Key: 'a' })).catch((error: Error) => error),
      kms.send(new GetPublicKeyCommand({ KeyId: 'alias/timeouts' })).catch((error: Error) => error),
    ]);
    const elapsed = performance.now() - started;
    for (const outcome of outcomes) expect(outcome).toMatchObject({ name: 'TimeoutError' });
    const attempts = await Promise.all([dynamoDb, s3, kms].map((client) => client.config.maxAttempts()));
    expect(attempts).toEqual([4, 3, 3]);
    expect(holes.map((hole) => hole.connections())).toEqual(attempts);
    // Every attempt waited its full timeout, and all of them stay well within a function's 10 s.
    expect(elapsed).toBeGreaterThanOrEqual(4 * REQUEST_HANDLER.requestTimeout - 50);
    expect(elapsed).toBeLessThan(9_000);
  }, 15_000);
});

describe('one deadline per invocation, DEADLINE_MARGIN_MS before the function\'s timeout', () => {
  const endingIn = (milliseconds: number) => ({ getRemainingTimeInMillis: () => DEADLINE_MARGIN_MS + milliseconds });

  it('aborts the AWS call in flight at the deadline (no attempt after it), and gives the work up with NoAnswerError', async () => {
    const dynamoDb = createDynamoDbClient();
    const before = holes[0]!.connections();
    const outcome = await withDeadline(endingIn(300), () => dynamoDb.send(new GetCommand({ TableName: 'timeouts', Key: { pk: 'a', sk: 'b' } }))).catch((error: Error) => error);
    expect(outcome).toBeInstanceOf(NoAnswerError);
    // Past the attempt's own timeout, when the SDK would have tried again: it did not.
    await new Promise((resolve) => setTimeout(resolve, REQUEST_HANDLER.requestTimeout + 500));
    expect(holes[0]!.connections() - before).toBe(1);
  });

  it('gives up work that awaits anything else too, and leaves work that ends in time alone', async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withDeadline(endingIn(50), () => never)).rejects.toBeInstanceOf(NoAnswerError);
    await expect(withDeadline(endingIn(5_000), async () => 'done')).resolves.toBe('done');
    await expect(withDeadline(endingIn(5_000), async () => Promise.reject(new RangeError('its own')))).rejects.toBeInstanceOf(RangeError);
  });
});
