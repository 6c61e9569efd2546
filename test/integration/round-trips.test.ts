import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { draftExample, uniqueKey } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * DynamoDB round trips per API operation, counted exactly by a middleware on the SDK client
 * while the real handlers run in this process (through the same local gateway) against the
 * suite's DynamoDB Local. Each operation has a floor; a change that adds a round trip fails here.
 */
let gateway: InProcessGateway;

beforeAll(async () => {
  gateway = await startInProcessGateway();
});

afterAll(() => gateway?.stop());

/** Sends one request in-process and returns its answer with the DynamoDB calls it made. */
const roundTrips = (method: string, url: string, json?: unknown) => gateway.send(method, url, json);

const bodyOf = (answer: APIGatewayProxyStructuredResultV2) => JSON.parse(answer.body as string);

describe('DynamoDB round trips per operation (exact counts, not timings)', () => {
  it('create: 1 (one transaction: the resource, the project counter, and the key sentinel if any)', async () => {
    const plain = await roundTrips('POST', '/demo/resource', draftExample);
    expect(plain.answer.statusCode).toBe(201);
    expect(plain.calls).toEqual(['TransactWriteItemsCommand']);
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

  it('delete: 2 (a read, then one transaction: the resource, the counter, and the key if any)', async () => {
    const plain = bodyOf((await roundTrips('POST', '/demo/resource', draftExample)).answer);
    expect((await roundTrips('DELETE', `/demo/resource/${plain.id}`)).calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    const keyed = bodyOf((await roundTrips('POST', '/demo/resource', { key: uniqueKey(), ...draftExample })).answer);
    expect(keyed.key).toBeDefined();
    expect((await roundTrips('DELETE', `/demo/resource/${keyed.id}`)).calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  });

  it('writes by key: 2 when the expected case holds (PUT and PATCH: read the key, then replace; POST: claim the key)', async () => {
    const key = uniqueKey();
    // PUT and PATCH expect the key held: its sentinel is read first, then the resource replaced in place.
    const putNew = await roundTrips('PUT', '/demo/resource', { key, ...draftExample });
    expect(putNew.answer.statusCode).toBe(201);
    expect(putNew.calls).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    const putHeld = await roundTrips('PUT', '/demo/resource', { key, ...draftExample });
    expect(putHeld.answer.statusCode).toBe(200);
    expect(putHeld.calls).toEqual(['GetItemCommand', 'UpdateItemCommand']);
    const overwrite = await roundTrips('PATCH', '/demo/resource', { key, ...draftExample });
    expect(overwrite.answer.statusCode).toBe(200);
    expect(overwrite.calls).toEqual(['GetItemCommand', 'UpdateItemCommand']);
    // POST expects it free: the create's transaction claims it, and only a cancelled claim replaces.
    const postHeld = await roundTrips('POST', '/demo/resource', { key, ...draftExample });
    expect(postHeld.answer.statusCode).toBe(200);
    expect(bodyOf(postHeld.answer).version).toBe(4);
    expect(postHeld.calls).toEqual(['TransactWriteItemsCommand', 'UpdateItemCommand']);
  });

  it('HEAD with a key predicate: 2 (the key sentinel, then the resource)', async () => {
    const key = uniqueKey();
    await roundTrips('POST', '/demo/resource', { key, ...draftExample });
    const head = await roundTrips('HEAD', `/demo/resource?where=${encodeURIComponent(`key = "${key}"`)}`);
    expect(head.answer.statusCode).toBe(200);
    expect(head.calls).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
  });
});
