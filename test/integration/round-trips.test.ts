import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, draftExample, tokenFor, uniqueKey } from './api-client';
import { inject } from 'vitest';

/**
 * DynamoDB round trips per API operation, counted exactly by a middleware on the SDK client
 * while the real handlers run in this process (through the same local gateway) against the
 * suite's DynamoDB Local. Each operation has a floor; a change that adds a round trip fails here.
 */
const calls: string[] = [];
let gateway: Awaited<ReturnType<typeof import('../../local/stack')['createLocalGateway']>>;
let removeCounter: () => void;

beforeAll(async () => {
  const endpoints = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8'));
  Object.assign(process.env, {
    TABLE_NAME: endpoints.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamoDbEndpoint,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    TOKEN_ISSUER: baseUrl.replace('127.0.0.1', 'localhost'),
    TOKEN_AUDIENCE: 'generic-resource-service',
    SIGNING_KEY_FILE: join(inject('dataDir'), 'signing-key.pem'),
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
  const name = 'countRoundTrips';
  dynamoDb.middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name },
  );
  removeCounter = () => dynamoDb.middlewareStack.remove(name);
  gateway = await (await import('../../local/stack')).createLocalGateway();
  // The authorizer reads the token's client once per cached verdict (300 s), not per request:
  // settle that verdict before counting the operations' own round trips.
  await roundTrips('GET', '/demo/resource/key=warm-up');
});

afterAll(() => removeCounter?.());

/** Sends one request in-process and returns its answer with the DynamoDB calls it made. */
async function roundTrips(method: string, url: string, json?: unknown): Promise<{ answer: APIGatewayProxyStructuredResultV2; calls: string[] }> {
  const token = await tokenFor();
  calls.length = 0;
  const answer = await gateway.answer({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(json)),
  });
  return { answer, calls: [...calls] };
}

const bodyOf = (answer: APIGatewayProxyStructuredResultV2) => JSON.parse(answer.body as string);

describe('DynamoDB round trips per operation (exact counts, not timings)', () => {
  it('create: 1 (a PutItem, or one transaction with the key sentinel)', async () => {
    const plain = await roundTrips('POST', '/demo/resource', draftExample);
    expect(plain.answer.statusCode).toBe(201);
    expect(plain.calls).toEqual(['PutItemCommand']);
    const keyed = await roundTrips('POST', '/demo/resource', { key: uniqueKey(), ...draftExample });
    expect(keyed.answer.statusCode).toBe(201);
    expect(keyed.calls).toEqual(['TransactWriteItemsCommand']);
  });

  it('get by id: 1; get by key: at most 2', async () => {
    const key = uniqueKey();
    const { answer } = await roundTrips('POST', '/demo/resource', { key, ...draftExample });
    const { id } = bodyOf(answer);
    expect((await roundTrips('GET', `/demo/resource/${id}`)).calls).toHaveLength(1);
    expect((await roundTrips('GET', `/demo/resource/key=${key}`)).calls.length).toBeLessThanOrEqual(2);
  });

  it('update whose actions are update expressions: 1; a stale version costs no extra read', async () => {
    const { id } = bodyOf((await roundTrips('POST', '/demo/resource', draftExample)).answer);
    const update = await roundTrips('POST', `/demo/resource/${id}`, { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'x' }] });
    expect(update.answer.statusCode).toBe(200);
    expect(update.calls).toEqual(['UpdateItemCommand']);
    const stale = await roundTrips('POST', `/demo/resource/${id}`, { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'y' }] });
    expect(stale.answer.statusCode, stale.answer.body).toBe(409);
    expect(stale.calls).toEqual(['UpdateItemCommand']);
  });

  it('setKey: 2 (the old key must be read to be freed)', async () => {
    const { id } = bodyOf((await roundTrips('POST', '/demo/resource', { key: uniqueKey(), ...draftExample })).answer);
    const rekey = await roundTrips('POST', `/demo/resource/${id}`, { version: 1, actions: [{ action: 'setKey', key: uniqueKey() }] });
    expect(rekey.answer.statusCode).toBe(200);
    expect(rekey.calls).toHaveLength(2);
  });

  it('delete: 1 without a key (2 with one: the key is freed in the same transaction)', async () => {
    const plain = bodyOf((await roundTrips('POST', '/demo/resource', draftExample)).answer);
    expect((await roundTrips('DELETE', `/demo/resource/${plain.id}`)).calls).toEqual(['DeleteItemCommand']);
    const keyed = bodyOf((await roundTrips('POST', '/demo/resource', { key: uniqueKey(), ...draftExample })).answer);
    expect(keyed.key).toBeDefined();
    expect((await roundTrips('DELETE', `/demo/resource/${keyed.id}`)).calls).toEqual(['DeleteItemCommand', 'TransactWriteItemsCommand']);
  });

  it('HEAD with a match on the first page: 1 page', async () => {
    const key = uniqueKey();
    await roundTrips('POST', '/demo/resource', { key, ...draftExample });
    const head = await roundTrips('HEAD', `/demo/resource?where=${encodeURIComponent(`key = "${key}"`)}`);
    expect(head.answer.statusCode).toBe(200);
    expect(head.calls).toEqual(['QueryCommand']);
  });
});
