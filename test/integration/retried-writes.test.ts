import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_IMAGE_UPLOADS_BUCKET, LOCAL_IMAGES_BUCKET } from '../../local/stack';
import { GIF_1X1, png } from '../support/images';
import { call, draftExample, tokenFor, uniqueKey } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * A write whose answer is lost after DynamoDB applied it (a request timeout: shared/aws/request-
 * timeouts.ts) is sent again by the SDK. Here the answer of the next write of a kind is dropped as
 * a timeout drops it — the item is written, the SDK sees a TimeoutError and retries — and the
 * request must still be answered as applied once (shared/store/dynamodb/write-tokens.ts).
 */
let gateway: InProcessGateway;
let dynamoDb: Awaited<ReturnType<typeof import('../../shared/composition-root')['dynamoDb']>>;
const endpoints = () => JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8'));

beforeAll(async () => {
  gateway = await startInProcessGateway({
    AWS_ENDPOINT_URL_S3: endpoints().s3Endpoint,
    IMAGES_BUCKET: LOCAL_IMAGES_BUCKET,
    IMAGE_UPLOADS_BUCKET: LOCAL_IMAGE_UPLOADS_BUCKET,
    IMAGE_BASE_URL: endpoints().imageBaseUrl,
  });
  dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
});
afterAll(() => gateway.stop());

/** Drops the answer of the next command of these kinds once it is applied; the result tells how often that very command was sent. */
function loseAnswerOfNext(...commands: string[]): () => number {
  const name = `loseAnswer-${uniqueKey()}`;
  let target: unknown; // the command's input: the SDK's retries send the same one
  let sent = 0;
  dynamoDb.middlewareStack.add(
    (next, context) => async (args) => {
      if (target === undefined && commands.includes(String(context.commandName))) target = args.input;
      if (args.input !== target) return next(args);
      sent++;
      const result = await next(args); // DynamoDB Local applied it
      if (sent === 1) throw Object.assign(new Error('Lost answer (test): request timed out'), { name: 'TimeoutError', $metadata: {} });
      return result;
    },
    // Below the SDK's retry middleware, as a socket timeout is.
    { step: 'deserialize', name },
  );
  return () => {
    dynamoDb.middlewareStack.remove(name);
    return sent;
  };
}

/**
 * Applies the next transaction, then answers it TransactionInProgressException on every attempt
 * the SDK makes of that send (as DynamoDB answers them while a first attempt that timed out still
 * runs); a later send of the same transaction passes. The result: the tokens of the sends.
 */
function answerNextTransactionInProgress(): () => (string | undefined)[] {
  const name = `inProgress-${uniqueKey()}`;
  let first: unknown; // the first send's input: the SDK's retries of that send carry the same one
  const tokens: (string | undefined)[] = [];
  dynamoDb.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      const token = (args.input as { ClientRequestToken?: string }).ClientRequestToken;
      if (first === undefined) first = args.input;
      else if (args.input === first) throw inProgress();
      else if (token !== tokens[0]) return next(args);
      tokens.push(token);
      const result = await next(args); // DynamoDB Local applied it (sent again with its token, answers as the first)
      if (args.input === first) throw inProgress();
      return result;
    },
    { step: 'deserialize', name },
  );
  return () => {
    dynamoDb.middlewareStack.remove(name);
    return tokens;
  };
}

const inProgress = () =>
  Object.assign(new Error('Transaction is in progress (test)'), { name: 'TransactionInProgressException', $fault: 'client', $metadata: { httpStatusCode: 400 } });

describe('a transaction DynamoDB reports in progress is sent again with its token and applied once', () => {
  it('a create by key: 201, one resource at version 1', async () => {
    const key = uniqueKey();
    const tokens = answerNextTransactionInProgress();
    const created = await gateway.send('POST', '/demo/resource', { key, ...draftExample });
    const sent = tokens();
    expect(sent).toHaveLength(2); // the first send (the SDK's retries of it refused) and the one 5 s after
    expect(sent[1]).toBe(sent[0]);
    expect(created.answer.statusCode, created.answer.body).toBe(201);
    const read = await call('GET', `/demo/resource/key=${key}`, { token: await tokenFor() });
    expect(read.body).toMatchObject({ id: JSON.parse(created.answer.body!).id, version: 1 });
  }, 15_000);
});

describe('a write sent again after its answer was lost is applied once', () => {
  it('an update (changeSomeProperty): 200 at version + 1, not 409', async () => {
    const created = await gateway.send('POST', '/demo/resource', draftExample);
    const id = JSON.parse(created.answer.body!).id;
    const sent = loseAnswerOfNext('UpdateItemCommand');
    const updated = await gateway.send('POST', `/demo/resource/${id}`, { version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'once' }] });
    expect(sent()).toBe(2);
    expect(updated.answer.statusCode, updated.answer.body).toBe(200);
    expect(JSON.parse(updated.answer.body!)).toMatchObject({ version: 2, someProperty: 'once' });
    expect(JSON.parse(updated.answer.body!)).not.toHaveProperty('writeToken');
  });

  it('an overwrite by key without a version (PUT): version + 1, not + 2', async () => {
    const key = uniqueKey();
    await gateway.send('POST', '/demo/resource', { key, ...draftExample });
    const sent = loseAnswerOfNext('UpdateItemCommand');
    const overwritten = await gateway.send('PUT', '/demo/resource', { key, objectTypeProperty: { arrayOfIntExample: [7] } });
    expect(sent()).toBe(2);
    expect(overwritten.answer.statusCode, overwritten.answer.body).toBe(200);
    expect(JSON.parse(overwritten.answer.body!)).toMatchObject({ key, version: 2, objectTypeProperty: { arrayOfIntExample: [7] } });
    expect((await call('GET', `/demo/resource/key=${key}`, { token: await tokenFor() })).body.version).toBe(2);
  });

  it('an overwrite at a given version (PATCH): 200, not 409', async () => {
    const key = uniqueKey();
    await gateway.send('POST', '/demo/resource', { key, ...draftExample });
    const sent = loseAnswerOfNext('UpdateItemCommand');
    const patched = await gateway.send('PATCH', '/demo/resource', { key, version: 1, objectTypeProperty: { arrayOfIntExample: [8] } });
    expect(sent()).toBe(2);
    expect(patched.answer.statusCode, patched.answer.body).toBe(200);
    expect(JSON.parse(patched.answer.body!).version).toBe(2);
  });

  it('an image appended to a variant: once', async () => {
    const sku = uniqueKey('sku');
    const token = await tokenFor('manage_products:demo');
    const upload = (bytes: Buffer, type: string) => call('POST', `/demo/resource/images?sku=${sku}`, { token, body: bytes, headers: { 'content-type': type } });
    expect((await upload(png(1, 1), 'image/png')).status).toBe(200); // creates the variant
    const sent = loseAnswerOfNext('UpdateItemCommand');
    const appended = await gateway.sendRaw('POST', `/demo/resource/images?sku=${sku}`, GIF_1X1, 'image/gif');
    expect(sent()).toBe(2);
    expect(appended.answer.statusCode, appended.answer.body).toBe(200);
    expect(JSON.parse(appended.answer.body!).stagedImages).toHaveLength(2);
    expect((await upload(png(2, 2), 'image/png')).body.stagedImages).toHaveLength(3);
  });

  it('a two-step upload\'s completion claims its upload once and attaches the image, not 404', async () => {
    const token = await tokenFor('manage_products:demo');
    const started = await call('POST', `/demo/resource/images/uploads?sku=${uniqueKey('sku')}&contentType=image/gif&size=${GIF_1X1.length}`, { token });
    expect(started.status).toBe(201);
    expect((await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: GIF_1X1 })).status).toBe(200);
    // The claim is the completion's first write.
    const sent = loseAnswerOfNext('DeleteItemCommand', 'TransactWriteItemsCommand');
    const completed = await gateway.send('POST', `/demo/resource/images/uploads/${started.body.uploadId}`);
    expect(sent()).toBe(2);
    expect(completed.answer.statusCode, completed.answer.body).toBe(200);
    expect(JSON.parse(completed.answer.body!).stagedImages).toHaveLength(1);
  });
});
