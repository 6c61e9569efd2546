import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { deliverChanges } from '../../functions/deliver-changes/function';
import { startChangeStream, type ConsumeBatch } from '../../local/change-stream';
import { ensureTable } from '../../local/dynamodb-local';
import { verifySignature } from '../../shared/domain/extensions/signing';
import { SubscriptionDelivery, DELIVERY_SIGNATURE_HEADER } from '../../shared/services/subscription-delivery';
import { DynamoDbResourceStore } from '../../shared/store/dynamodb/resource-store';
import { resourceChangeOf, resourceChangesOf } from '../../shared/store/dynamodb/stream-records';
import { DynamoDbSubscriptionStore } from '../../shared/store/dynamodb/subscription-store';
import { call, draftExample, tokenFor } from './api-client';

/**
 * Change subscriptions end to end: subscriptions made through the API of the local stack, whose
 * consumer reads the table's stream and POSTs to a webhook in this process (local mode allows
 * loopback). The stack retries failed deliveries after 200 ms (global-setup.ts).
 */
const PROJECT = 'subscriptions';
const dataDir = inject('dataDir');
const local = JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8')) as { dynamoDbEndpoint: string; tableName: string };
const documents = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: local.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  { marshallOptions: { removeUndefinedValues: true } },
);

interface Received {
  body: Record<string, any>;
  signatureValid: boolean;
}

/** One receiver; each hook is a path, with what it answers and what it got. */
let server: Server;
let receiverUrl: string;
const hooks = new Map<string, { status: number; secret: string; received: Received[] }>();

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const hook = hooks.get(request.url!);
      if (hook && hook.status === 200) {
        const signature = verifySignature(hook.secret, request.headers[DELIVERY_SIGNATURE_HEADER] as string, { method: 'POST', pathAndQuery: request.url!, body });
        hook.received.push({ body: JSON.parse(body), signatureValid: signature.valid });
      }
      response.writeHead(hook?.status ?? 404).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const api = async <T = any>(method: string, path: string, json?: unknown, project = PROJECT) =>
  call<T>(method, `/${project}/subscriptions${path}`, { token: await tokenFor(), json });

/** A subscription of the project to a new hook of the receiver. */
async function subscribe(name: string, project = PROJECT) {
  const created = await api('POST', '', { key: name, destination: { type: 'HTTP', url: `${receiverUrl}/${name}` }, changes: [{ resourceTypeId: 'resource' }] }, project);
  expect(created.status).toBe(201);
  const hook = { status: 200, secret: created.body.signingSecret as string, received: [] as Received[] };
  hooks.set(`/${name}`, hook);
  return { subscription: created.body, hook };
}

/** Create, update, delete of one resource of the project: its id. */
async function createUpdateDelete(project = PROJECT): Promise<string> {
  const token = await tokenFor();
  const { body: resource } = await call('POST', `/${project}/resource`, { token, json: { objectTypeProperty: draftExample.objectTypeProperty } });
  const update = { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'changed' }] };
  expect((await call('POST', `/${project}/resource/${resource.id}`, { token, json: update })).status).toBe(200);
  expect((await call('DELETE', `/${project}/resource/${resource.id}?version=2`, { token })).status).toBe(200);
  return resource.id;
}

/** What a hook got for one resource, de-duplicated by notification id (deliveries are at least once). */
const notificationsOf = (received: Received[], resourceId: string) => {
  const seen = new Set<string>();
  return received
    .map(({ body }) => body)
    .filter((body) => body.resource.id === resourceId && !seen.has(body.notificationId) && seen.add(body.notificationId));
};

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 20_000) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('delivery', () => {
  it('sends create, update and delete of a resource in order, signed, as commercetools change notifications', async () => {
    const { subscription, hook } = await subscribe('in-order');
    const id = await createUpdateDelete();
    await until(() => notificationsOf(hook.received, id).length === 3, 'three notifications');

    const [created, updated, deleted] = notificationsOf(hook.received, id);
    expect(created).toMatchObject({ notificationType: 'ResourceCreated', projectKey: PROJECT, resource: { typeId: 'resource', id }, version: 1 });
    expect(updated).toMatchObject({ notificationType: 'ResourceUpdated', version: 2, oldVersion: 1 });
    expect(deleted).toMatchObject({ notificationType: 'ResourceDeleted', version: 2 });
    expect(created!.notificationId).toContain(subscription.id);
    expect(hook.received.every((delivery) => delivery.signatureValid)).toBe(true);
  });

  it('delivers everything, in order, to a receiver that was down for a while', async () => {
    const { hook } = await subscribe('down-then-up');
    hook.status = 503;
    const first = await createUpdateDelete();
    const second = await createUpdateDelete();
    // Refused a few times (200 ms, 400 ms, ... apart), then taken.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(hook.received).toEqual([]);
    hook.status = 200;
    await until(() => notificationsOf(hook.received, second).length === 3, 'the queue to drain');

    const types = hook.received.map(({ body }) => `${body.resource.id === first ? 'first' : 'second'} ${body.notificationType}`);
    expect([...new Set(types)]).toEqual([
      'first ResourceCreated',
      'first ResourceUpdated',
      'first ResourceDeleted',
      'second ResourceCreated',
      'second ResourceUpdated',
      'second ResourceDeleted',
    ]);
  });

  it("never sends another project's changes", async () => {
    const { hook: mine } = await subscribe('isolation-mine');
    const { hook: theirs } = await subscribe('isolation-theirs', 'subscriptions-other');
    const id = await createUpdateDelete();
    const otherId = await createUpdateDelete('subscriptions-other');
    await until(() => notificationsOf(mine.received, id).length === 3 && notificationsOf(theirs.received, otherId).length === 3, 'both projects');
    expect(mine.received.every(({ body }) => body.projectKey === PROJECT)).toBe(true);
    expect(theirs.received.every(({ body }) => body.projectKey === 'subscriptions-other')).toBe(true);
  });
});

describe('a consumer stopped in the middle of a batch', () => {
  it('loses nothing: a new one starts from the last batch finished, and later ones from where it stopped', async () => {
    const endpoint = local.dynamoDbEndpoint;
    const tableName = `${local.tableName}-crash-${Date.now()}`;
    const streamArn = await ensureTable(endpoint, tableName);
    const subscriptions = new DynamoDbSubscriptionStore(documents, tableName);
    const resources = new DynamoDbResourceStore(documents, tableName);
    const now = new Date().toISOString();
    const subscription = { id: crypto.randomUUID(), version: 1, createdAt: now, lastModifiedAt: now, destination: { type: 'HTTP' as const, url: `${receiverUrl}/crash` }, changes: [{ resourceTypeId: 'resource' as const }] };
    const hook = { status: 200, secret: 'gres_crash-test-secret', received: [] as Received[] };
    hooks.set('/crash', hook);
    await subscriptions.create(PROJECT, { subscription, secret: hook.secret });
    const delivery = new SubscriptionDelivery(subscriptions, { send: async () => undefined }, { localMode: true, retry: { firstDelayMs: 100, giveUpAfterMs: 60_000 } });
    const consume: ConsumeBatch = async ({ Records }) => {
      const failed = await delivery.deliverChanges(resourceChangesOf(Records));
      return { batchItemFailures: failed === undefined ? [] : [{ itemIdentifier: failed }] };
    };
    const stream = (consumeWith: ConsumeBatch) => startChangeStream({ consumer: deliverChanges.name, reading: deliverChanges.tableStream!, streamsEndpoint: endpoint, streamArn, table: { db: documents, tableName }, consume: consumeWith });

    const created = await resources.create(PROJECT, { objectTypeProperty: draftExample.objectTypeProperty as never });
    await resources.update(PROJECT, created.id, 1, { someProperty: 'changed' });
    await resources.delete(PROJECT, created.id, 2);

    // The first consumer delivers the batch's first resource change, then dies: no position is written.
    const first = stream(async ({ Records }) => {
      const firstResource = Records.findIndex((record) => resourceChangeOf(record) !== undefined);
      // A batch of other items only (counters, sentinels) is taken whole: the failure comes mid-batch.
      if (firstResource === -1) return consume({ Records });
      await consume({ Records: Records.slice(0, firstResource + 1) });
      throw new Error('the consumer dies in the middle of a batch');
    });
    await until(() => hook.received.length > 0, 'the first consumer to deliver');
    await first.stop();
    expect(notificationsOf(hook.received, created.id).map((body) => body.notificationType)).toEqual(['ResourceCreated']);

    const second = stream(consume);
    await until(() => notificationsOf(hook.received, created.id).length === 3, 'the whole batch again');
    expect(notificationsOf(hook.received, created.id).map((body) => body.notificationType)).toEqual(['ResourceCreated', 'ResourceUpdated', 'ResourceDeleted']);
    await second.stop();

    // The second consumer wrote its position: the next one reads only what came after.
    const deliveredBefore = hook.received.length;
    const later = await resources.create(PROJECT, { objectTypeProperty: draftExample.objectTypeProperty as never });
    const third = stream(consume);
    await until(() => notificationsOf(hook.received, later.id).length === 1, 'the later change');
    await third.stop();
    expect(hook.received.slice(deliveredBefore).map(({ body }) => body.resource.id)).toEqual([later.id]);
  });
});

describe('the subscriptions API', () => {
  it('reads by id and key, lists, and deletes at the current version only', async () => {
    const { subscription } = await subscribe('lifecycle');
    expect((await api('GET', `/${subscription.id}`)).body).toEqual({ ...subscription, signingSecret: undefined });
    expect((await api('GET', '/key=lifecycle')).body.id).toBe(subscription.id);
    const page = await api('GET', '?limit=500');
    expect(page.body).toMatchObject({ limit: 500, offset: 0, total: page.body.results.length });
    expect(page.body.results.map((each: { id: string }) => each.id)).toContain(subscription.id);

    const stale = await api('DELETE', '/key=lifecycle?version=2');
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({ code: 'ConcurrentModification', currentVersion: 1 });
    expect((await api('DELETE', '/key=lifecycle?version=1')).status).toBe(200);
    expect((await api('GET', `/${subscription.id}`)).status).toBe(404);
  });

  it('keeps keys unique per project', async () => {
    await subscribe('unique');
    const again = await api('POST', '', { key: 'unique', destination: { type: 'HTTP', url: `${receiverUrl}/unique` }, changes: [{ resourceTypeId: 'resource' }] });
    expect(again.status).toBe(400);
    expect(again.body.errors[0]).toMatchObject({ code: 'DuplicateField', field: 'key' });
  });

  it.each([
    ['a private address', { type: 'HTTP', url: 'https://10.1.2.3/hook' }, /private address/],
    ['the metadata address', { type: 'HTTP', url: 'http://169.254.169.254/latest' }, /may not be called/],
    ['plain http beyond loopback', { type: 'HTTP', url: 'http://8.8.8.8/hook' }, /loopback/],
    ['an unknown destination type', { type: 'AzureServiceBus', connectionString: 'x' }, /destination.type/],
  ])('refuses %s with 400', async (_what, destination, message) => {
    const answer = await api('POST', '', { destination, changes: [{ resourceTypeId: 'resource' }] });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(message);
  });

  it('refuses message subscriptions and other resource types with 400 InvalidInput', async () => {
    const destination = { type: 'HTTP', url: `${receiverUrl}/refused` };
    const messages = await api('POST', '', { destination, messages: [{ resourceTypeId: 'resource' }] });
    expect(messages.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringMatching(/not supported/) });
    const product = await api('POST', '', { destination, changes: [{ resourceTypeId: 'product' }] });
    expect(product.status).toBe(400);
    expect(product.body.errors[0].code).toBe('InvalidInput');
  });

  it('takes manage_subscriptions to write and view_subscriptions to read (403 otherwise)', async () => {
    const body = { destination: { type: 'HTTP', url: `${receiverUrl}/scopes` }, changes: [{ resourceTypeId: 'resource' }] };
    const resourcesOnly = await tokenFor(`manage_test:${PROJECT}`);
    expect((await call('POST', `/${PROJECT}/subscriptions`, { token: resourcesOnly, json: body })).status).toBe(403);
    expect((await call('GET', `/${PROJECT}/subscriptions`, { token: resourcesOnly })).status).toBe(403);
    const viewer = await tokenFor(`view_subscriptions:${PROJECT}`);
    expect((await call('GET', `/${PROJECT}/subscriptions`, { token: viewer })).status).toBe(200);
    expect((await call('POST', `/${PROJECT}/subscriptions`, { token: viewer, json: body })).status).toBe(403);
  });
});

describe('the operator CLI (npm run subscriptions)', () => {
  const cli = async (...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_DATA_DIR: dataDir };
    delete env.TABLE_NAME;
    delete env.AWS_ENDPOINT_URL_DYNAMODB;
    return (await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/subscription-cli.ts', ...args], { env })).stdout;
  };

  it('lists the notifications given up on, and replays them to the destination', async () => {
    const { subscription, hook } = await subscribe('replayed');
    const now = new Date().toISOString();
    const notification = { notificationType: 'ResourceCreated' as const, projectKey: PROJECT, resource: { typeId: 'resource' as const, id: 'given-up' }, version: 1, modifiedAt: now };
    await new DynamoDbSubscriptionStore(documents, local.tableName).deadLetter({
      subscriptionId: subscription.id,
      projectKey: PROJECT,
      sequenceNumber: '7',
      notification,
      attempts: 20,
      parkedAt: now,
      nextAttemptAt: now,
      lastError: 'the destination answered 503',
    });
    const only = ['--project', PROJECT, '--subscription', subscription.id];
    expect(await cli('failed', ...only)).toContain('ResourceCreated given-up v1');
    expect(await cli('replay', ...only)).toContain('Replayed 1 notification');
    await until(() => hook.received.some(({ body }) => body.resource.id === 'given-up'), 'the replayed notification');
    expect(await cli('failed', ...only)).toContain('No failed notifications');
  });
});
