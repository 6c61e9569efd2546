import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { FaultProxy } from '../../support/fault-proxy';
import { baseUrl, call, devClient, draftExample, forgeToken, tokenFor, uniqueKey } from '../api-client';

/**
 * Fault injection over the network: the real handlers run in this process behind the local
 * gateway, and reach the suite's DynamoDB Local through a TCP proxy that delays, resets, stalls
 * and loses answers (test/support/fault-proxy.ts). Whatever the network does, an answer is a
 * success, a refusal the request earned, or 503 with Retry-After — never a 500 — and nothing is
 * half-written. What was stored is checked through the suite's own stack, past the proxy.
 */
let proxy: FaultProxy;
let gateway: Awaited<ReturnType<typeof import('../../../local/stack').createLocalGateway>>;
let token: string;

beforeAll(async () => {
  const engines = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8'));
  proxy = await FaultProxy.start(engines.dynamoDbEndpoint);
  Object.assign(process.env, {
    TABLE_NAME: engines.tableName,
    // The functions' endpoint: the proxy, in front of DynamoDB Local's own port.
    AWS_ENDPOINT_URL_DYNAMODB: proxy.url,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    TOKEN_ISSUER: baseUrl.replace('127.0.0.1', 'localhost'),
    TOKEN_AUDIENCE: 'generic-resource-service',
    SIGNING_KEY_FILE: join(inject('dataDir'), 'signing-key.pem'),
    AWS_LAMBDA_LOG_LEVEL: 'FATAL', // the 503s log their causes as errors; the answers are what is checked
  });
  gateway = await (await import('../../../local/stack')).createLocalGateway();
  token = await tokenFor();
});
afterEach(() => proxy.set(undefined));
afterAll(() => proxy.stop());

interface Sent {
  status: number;
  headers: Record<string, string>;
  body: any;
}

async function send(method: string, url: string, options: { json?: unknown; headers?: Record<string, string>; form?: string; sourceIp?: string } = {}): Promise<Sent> {
  const body = options.json !== undefined ? JSON.stringify(options.json) : (options.form ?? '');
  const answer: APIGatewayProxyStructuredResultV2 = await gateway.answer({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...options.headers,
    },
    body: Buffer.from(body),
    sourceIp: options.sourceIp ?? '127.0.0.1',
  });
  const headers = Object.fromEntries(Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
  return { status: answer.statusCode ?? 200, headers, body: answer.body ? JSON.parse(answer.body) : undefined };
}

/** 503 ServiceUnavailable with Retry-After; for a write, the message says the outcome is unknown and how to learn it. */
function expectNoAnswer(answer: Sent, write: boolean) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  expect(answer.body.errors[0].code).toBe('ServiceUnavailable');
  if (write) expect(answer.body.message).toMatch(/unknown: read the resource by id or key .* or retry with the same Idempotency-Key/);
}

/** The resources of project demo that hold `key`, read past the proxy. */
async function holdersOf(key: string) {
  const answer = await call('GET', `/demo/resource?where=${encodeURIComponent(`key = "${key}"`)}`, { token });
  return (answer.body.results as { id: string }[]).map((resource) => resource.id);
}

/** A draft no other resource of project demo matches (`markedIds`): a string of its own. */
const markedDraft = (mark: string) => ({ objectTypeProperty: { ...draftExample.objectTypeProperty, arrayOfStringExample: [mark] } });
async function markedIds(mark: string) {
  const answer = await call('GET', `/demo/resource?where=${encodeURIComponent(`objectTypeProperty(arrayOfStringExample contains "${mark}")`)}`, { token });
  return (answer.body.results as { id: string }[]).map((resource) => resource.id);
}

const basic = (secret: string) => `Basic ${Buffer.from(`${devClient.clientId}:${secret}`).toString('base64')}`;
const tokenRequest = (secret: string, sourceIp: string) =>
  send('POST', '/oauth/token', { form: 'grant_type=client_credentials&scope=view_test:demo', headers: { authorization: basic(secret) }, sourceIp });

describe('reads', () => {
  it('answers that come late, within the deadline: as if nothing happened', async () => {
    const created = await send('POST', '/demo/resource', { json: draftExample });
    proxy.set({ kind: 'delay', ms: 300 });
    const read = await send('GET', `/demo/resource/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(created.body.id);
  });

  it('every attempt reset before DynamoDB sees it: 503 ServiceUnavailable with Retry-After, after the SDK retried', async () => {
    proxy.set({ kind: 'reset-before' });
    expectNoAnswer(await send('GET', `/demo/resource/${randomUUID()}`), false);
    expect(proxy.seen.filter((request) => request.fault === 'reset-before').length).toBeGreaterThanOrEqual(4);
  });

  it('an answer that stalls after its headers: 503 at the request\'s deadline, not a timeout of the function', async () => {
    proxy.set({ kind: 'stall', operations: ['GetItem'] });
    expectNoAnswer(await send('GET', `/demo/resource/${randomUUID()}`), false);
  }, 20_000);
});

describe('writes: applied once, or said to be unknown', () => {
  it('a keyed create whose answer is lost once: the SDK resends it, one 201, one resource holds the key', async () => {
    const key = uniqueKey('lost-create');
    proxy.set({ kind: 'reset-after', operations: ['TransactWriteItems'], times: 1 });
    const created = await send('POST', '/demo/resource', { json: { key, ...draftExample } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await holdersOf(key)).toEqual([created.body.id]);
  });

  it('a delete applied but never answered: 503 saying the outcome is unknown; a read then finds it gone, its key free', async () => {
    const key = uniqueKey('lost-delete');
    const created = await send('POST', '/demo/resource', { json: { key, ...draftExample } });
    proxy.set({ kind: 'reset-after', operations: ['TransactWriteItems', 'DeleteItem'] });
    expectNoAnswer(await send('DELETE', `/demo/resource/${created.body.id}?version=1`), true);
    proxy.set(undefined);
    expect((await call('GET', `/demo/resource/${created.body.id}`, { token })).status).toBe(404);
    expect(await holdersOf(key)).toEqual([]);
  });

  it('a create with an Idempotency-Key applied but never answered: 503; its retry answers that resource, and no second is made', async () => {
    const mark = uniqueKey('mark');
    const headers = { 'idempotency-key': randomUUID() };
    proxy.set({ kind: 'reset-after', operations: ['TransactWriteItems'] });
    expectNoAnswer(await send('POST', '/demo/resource', { json: markedDraft(mark), headers }), true);
    proxy.set(undefined);
    const [made] = await markedIds(mark);
    expect(made).toBeDefined();

    const retried = await send('POST', '/demo/resource', { json: markedDraft(mark), headers });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body).toMatchObject({ id: made, version: 1 });
    expect(await markedIds(mark)).toEqual([made]);
    // The retry's answer is kept now: a third send replays it.
    expect((await send('POST', '/demo/resource', { json: markedDraft(mark), headers })).body.id).toBe(made);
  });

  it('after such a 503, another body under the same key is not answered with the resource made of the first', async () => {
    const [first, second] = [uniqueKey('mark'), uniqueKey('mark')];
    const headers = { 'idempotency-key': randomUUID() };
    proxy.set({ kind: 'reset-after', operations: ['TransactWriteItems'] });
    expectNoAnswer(await send('POST', '/demo/resource', { json: markedDraft(first), headers }), true);
    proxy.set(undefined);
    const other = await send('POST', '/demo/resource', { json: markedDraft(second), headers });
    expect(other.status).toBe(201);
    expect(other.body.objectTypeProperty.arrayOfStringExample).toEqual([second]);
    expect(await markedIds(second)).toEqual([other.body.id]);
  });

  it('the same for a keyed create: its retry answers the resource made (201, version 1), not an overwrite', async () => {
    const key = uniqueKey('lost-keyed-create');
    const headers = { 'idempotency-key': randomUUID() };
    proxy.set({ kind: 'reset-after', operations: ['TransactWriteItems'] });
    expectNoAnswer(await send('POST', '/demo/resource', { json: { key, ...draftExample }, headers }), true);
    proxy.set(undefined);
    const retried = await send('POST', '/demo/resource', { json: { key, ...draftExample }, headers });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body).toMatchObject({ key, version: 1 });
    expect(await holdersOf(key)).toEqual([retried.body.id]);
  });

  it('without the key such a create is unknown to the service: a resend makes a second resource', async () => {
    const mark = uniqueKey('mark');
    proxy.set({ kind: 'reset-after', operations: ['TransactWriteItems'] });
    expectNoAnswer(await send('POST', '/demo/resource', { json: markedDraft(mark) }), true);
    proxy.set(undefined);
    expect((await send('POST', '/demo/resource', { json: markedDraft(mark) })).status).toBe(201);
    expect(await markedIds(mark)).toHaveLength(2);
  });

  it('an update whose every answer is reset before it reaches DynamoDB: 503, and the resource is as it was', async () => {
    const created = await send('POST', '/demo/resource', { json: draftExample });
    proxy.set({ kind: 'reset-before', operations: ['UpdateItem', 'TransactWriteItems'] });
    expectNoAnswer(await send('POST', `/demo/resource/${created.body.id}`, { json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'x' }] } }), true);
    proxy.set(undefined);
    expect((await call('GET', `/demo/resource/${created.body.id}`, { token })).body.version).toBe(1);
  });
});

describe('token requests with the right secret are never refused as invalid_client', () => {
  it('30 at once from one address while DynamoDB loses answers: tokens, or 503 with Retry-After', async () => {
    proxy.set({ kind: 'reset-after', times: 20 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => tokenRequest(devClient.clientSecret, '127.0.0.30')));
    for (const answer of answers) {
      expect([200, 503], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status === 503) expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    proxy.set(undefined);
    expect((await tokenRequest(devClient.clientSecret, '127.0.0.30')).status).toBe(200);
  });

  it('ten whose every answer is lost get 503; the right secret then gets its token, not 401 for the rest of the window', async () => {
    proxy.set({ kind: 'reset-after' });
    for (let attempt = 0; attempt < 10; attempt++) expectNoAnswer(await tokenRequest(devClient.clientSecret, '127.0.0.31'), true);
    proxy.set(undefined);
    expect((await tokenRequest(devClient.clientSecret, '127.0.0.31')).status).toBe(200);
  });
});

describe('the authorizer when DynamoDB does not answer', () => {
  it('a genuine token gets 503 with Retry-After (not a bare 500); a forged one is still 401', async () => {
    // A token whose verdict this gateway has not cached yet.
    const fresh = (await call('POST', '/oauth/token', {
      body: 'grant_type=client_credentials&scope=view_test:other',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(devClient.clientSecret) },
    })).body.access_token as string;
    proxy.set({ kind: 'reset-before' });
    const answer = await send('GET', `/other/resource/${randomUUID()}`, { headers: { authorization: `Bearer ${fresh}` } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.body.errors[0].code).toBe('ServiceUnavailable');
    const retryAfter = Number(answer.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300); // when the verdict leaves the cache

    const forged = forgeToken({ iss: 'https://elsewhere.example', aud: 'generic-resource-service', client_id: devClient.clientId, scope: 'view_test:other', exp: Math.floor(Date.now() / 1000) + 600 });
    expect((await send('GET', `/other/resource/${randomUUID()}`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
  });
});
