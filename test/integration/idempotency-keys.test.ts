import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, draftExample, uniqueKey } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';
import { basic, createTestClient, requestToken } from './test-clients';

/**
 * The Idempotency-Key header on the write routes (shared/http/idempotency-keys.ts): a retry with
 * the same key and request answers the first answer and does nothing again; another request with
 * that key is 422, a retry while the first runs 409; records are per project and client.
 */

/** A client of its own on fresh projects, so that counting their resources counts only this test's. */
async function freshCaller(projects: string[]) {
  const client = await createTestClient(projects.map((project) => `manage_test:${project}`), 'idem');
  const token = (await requestToken(basic(client.clientId, client.secret))).body.access_token as string;
  return {
    send: (method: string, path: string, options: { json?: unknown; key?: string } = {}) =>
      call(method, path, { token, json: options.json, headers: options.key === undefined ? {} : { 'idempotency-key': options.key } }),
    /** How many resources the project holds (a project counter: exact). */
    count: async (project: string) => (await call('GET', `/${project}/resource?limit=0&withTotal=true`, { token })).body.total as number,
  };
}

describe('Idempotency-Key over HTTP', () => {
  it('a create retried with the same key answers the first answer again, and one resource exists', async () => {
    const project = uniqueKey('idem');
    const caller = await freshCaller([project]);
    const key = `"${crypto.randomUUID()}"`;
    const first = await caller.send('POST', `/${project}/resource`, { json: draftExample, key });
    expect(first.status).toBe(201);
    const retry = await caller.send('POST', `/${project}/resource`, { json: draftExample, key });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(retry.headers.get('x-correlation-id')).not.toBe(first.headers.get('x-correlation-id'));
    // The same JSON written differently is the same request.
    const reordered = Object.fromEntries(Object.entries(draftExample).reverse());
    expect((await caller.send('POST', `/${project}/resource`, { json: reordered, key })).body).toEqual(first.body);
    expect(await caller.count(project)).toBe(1);
  });

  it('the same key with another body is 422 and does nothing; a new key runs', async () => {
    const project = uniqueKey('idem');
    const caller = await freshCaller([project]);
    const key = uniqueKey('k');
    expect((await caller.send('POST', `/${project}/resource`, { json: draftExample, key })).status).toBe(201);
    const other = { ...draftExample, key: uniqueKey() };
    const reused = await caller.send('POST', `/${project}/resource`, { json: other, key });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ statusCode: 422, errors: [{ code: 'InvalidInput', message: expect.stringMatching(/Idempotency-Key/) }] });
    expect(reused.body.message).toBe(reused.body.errors[0].message);
    expect(await caller.count(project)).toBe(1);
    expect((await caller.send('POST', `/${project}/resource`, { json: other, key: uniqueKey('k') })).status).toBe(201);
    expect(await caller.count(project)).toBe(2);
  });

  it('the query string is part of the request: a DELETE retried answers the deleted resource, at another version it is 422', async () => {
    const project = uniqueKey('idem');
    const caller = await freshCaller([project]);
    const { id } = (await caller.send('POST', `/${project}/resource`, { json: draftExample })).body;
    const key = uniqueKey('k');
    const deleted = await caller.send('DELETE', `/${project}/resource/${id}?version=1`, { key });
    expect(deleted.status).toBe(200);
    // Without the key the retry would be 404: the resource is gone.
    expect(await caller.send('DELETE', `/${project}/resource/${id}?version=1`, { key })).toMatchObject({ status: 200, body: deleted.body });
    expect((await caller.send('DELETE', `/${project}/resource/${id}?version=2`, { key })).status).toBe(422);
    expect((await caller.send('DELETE', `/${project}/resource/${id}?version=1`)).status).toBe(404);
  });

  it('a refusal is not kept: the same key runs again (the SDK retries a 409 at the new version with the same headers)', async () => {
    const project = uniqueKey('idem');
    const caller = await freshCaller([project]);
    const { id } = (await caller.send('POST', `/${project}/resource`, { json: draftExample })).body;
    await caller.send('POST', `/${project}/resource/${id}`, { json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'a' }] } });
    const key = uniqueKey('k');
    const stale = await caller.send('POST', `/${project}/resource/${id}`, { json: { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'b' }] }, key });
    expect(stale.status).toBe(409);
    const current = await caller.send('POST', `/${project}/resource/${id}`, { json: { version: 2, actions: [{ action: 'changeSomeProperty', someProperty: 'b' }] }, key });
    expect(current).toMatchObject({ status: 200, body: { version: 3, someProperty: 'b' } });
  });

  it('records are per project and per client: the same key elsewhere runs on its own', async () => {
    const [one, two] = [uniqueKey('idem'), uniqueKey('idem')];
    const alice = await freshCaller([one, two]);
    const bob = await freshCaller([one]);
    const key = 'shared-key';
    const first = await alice.send('POST', `/${one}/resource`, { json: draftExample, key });
    const otherProject = await alice.send('POST', `/${two}/resource`, { json: draftExample, key });
    const otherClient = await bob.send('POST', `/${one}/resource`, { json: draftExample, key });
    expect([first.status, otherProject.status, otherClient.status]).toEqual([201, 201, 201]);
    expect(new Set([first.body.id, otherProject.body.id, otherClient.body.id]).size).toBe(3);
    expect(await alice.count(one)).toBe(2);
    expect(await alice.count(two)).toBe(1);
  });

  it('without the header nothing changes: each POST creates', async () => {
    const project = uniqueKey('idem');
    const caller = await freshCaller([project]);
    const [a, b] = [await caller.send('POST', `/${project}/resource`, { json: draftExample }), await caller.send('POST', `/${project}/resource`, { json: draftExample })];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(await caller.count(project)).toBe(2);
  });
});

describe('Idempotency-Key in process (the same handlers and DynamoDB Local)', () => {
  let gateway: InProcessGateway;
  let dynamoDb: ReturnType<typeof import('../../shared/composition-root')['dynamoDb']>;

  beforeAll(async () => {
    gateway = await startInProcessGateway();
    dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
  });
  afterAll(() => gateway?.stop());

  it('a retry while the first request runs is 409, and nothing runs twice; afterwards it answers the first answer', async () => {
    // Holds the create's transaction until released: the first request is then in flight.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const inFlight = new Promise<void>((resolve) => (reached = resolve));
    dynamoDb.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') {
          reached();
          await held;
        }
        return next(args);
      },
      { step: 'initialize', name: 'holdCreate' },
    );
    const key = uniqueKey('k');
    try {
      const first = gateway.send('POST', '/demo/resource', draftExample, { 'idempotency-key': key });
      await inFlight;
      dynamoDb.middlewareStack.remove('holdCreate');
      const duplicate = await gateway.send('POST', '/demo/resource', draftExample, { 'idempotency-key': key });
      expect(duplicate.answer.statusCode).toBe(409);
      // As the document shows it.
      const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
      const documented = document.paths['/{projectKey}/resource'].post.responses['409'].content['application/json'].examples.IdempotencyKeyInFlight.value;
      expect(JSON.parse(duplicate.answer.body as string)).toEqual(documented);
      expect(duplicate.calls).toEqual(['PutItemCommand']); // its record only: refused, nothing else
      release();
      const created = (await first).answer;
      expect(created.statusCode).toBe(201);
      const replayed = await gateway.send('POST', '/demo/resource', draftExample, { 'idempotency-key': key });
      expect(replayed.answer.statusCode).toBe(201);
      expect(replayed.answer.body).toBe(created.body);
      expect(replayed.calls).toEqual(['PutItemCommand']);
    } finally {
      dynamoDb.middlewareStack.remove('holdCreate');
      release();
    }
  });

  it('costs two writes with a key (the record, then the answer) and none without', async () => {
    const keyed = await gateway.send('POST', '/demo/resource', draftExample, { 'idempotency-key': uniqueKey('k') });
    expect(keyed.calls).toEqual(['PutItemCommand', 'TransactWriteItemsCommand', 'UpdateItemCommand']);
    const plain = await gateway.send('POST', '/demo/resource', draftExample);
    expect(plain.calls).toEqual(['TransactWriteItemsCommand']);
  });
});
