import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { endpoints, fallback } from '../../functions/endpoints';
import { functionEntry, lambdaEsbuildOptions } from '../../infra/bundling';
import { createGateway } from '../../local/gateway';
import type { AuthorizerHandler, RouteHandler } from '../../local/lambda-events';
import { LOCAL_IMAGE_UPLOADS_BUCKET, LOCAL_IMAGES_BUCKET } from '../../local/stack';
import { png } from '../support/images';
import { baseUrl, tokenFor, uniqueKey } from './api-client';

/**
 * The functions as `cdk synth` bundles them — with the SDK's stand-ins of infra/sdk-stand-ins/
 * (environment credentials only, no event-stream codec, a Map for the endpoint cache) — answer
 * real requests against the suite's DynamoDB Local and S3 emulator: a DynamoDB-only function, one
 * that writes with a transaction, one with both the S3 and the DynamoDB client, and the authorizer.
 */
const BUNDLED = ['authorizer', 'create-resource', 'get-resource', 'upload-image'];

let outDir: string;
const handlers = new Map<string, RouteHandler>();
let gateway: ReturnType<typeof createGateway>;

beforeAll(async () => {
  const local = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8'));
  // What the stack sets for every function (infra/stack.ts), pointed at the suite's engines, read when a bundle first uses it.
  Object.assign(process.env, {
    TABLE_NAME: local.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: local.dynamoDbEndpoint,
    AWS_ENDPOINT_URL_S3: local.s3Endpoint,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    IMAGES_BUCKET: LOCAL_IMAGES_BUCKET,
    IMAGE_UPLOADS_BUCKET: LOCAL_IMAGE_UPLOADS_BUCKET,
    IMAGE_BASE_URL: local.imageBaseUrl,
    TOKEN_ISSUER: baseUrl.replace('127.0.0.1', 'localhost'),
    TOKEN_AUDIENCE: 'generic-resource-service',
    SIGNING_KEY_FILE: join(inject('dataDir'), 'signing-key.pem'),
    AWS_LAMBDA_LOG_LEVEL: 'ERROR',
  });
  outDir = await mkdtemp(join(tmpdir(), 'grs-bundled-'));
  for (const name of BUNDLED) {
    const outfile = join(outDir, `${name}.mjs`);
    await build({ ...lambdaEsbuildOptions(functionEntry(name), outfile), logLevel: 'silent' });
    handlers.set(name, (await import(pathToFileURL(outfile).href)).handler as RouteHandler);
  }
  gateway = createGateway({
    endpoints,
    fallback,
    loadHandler: async (endpoint) => {
      const handler = handlers.get(endpoint.name);
      if (!handler) throw new Error(`${endpoint.name} is not among the bundled functions of this test`);
      return handler;
    },
    authorizer: handlers.get('authorizer') as unknown as AuthorizerHandler,
  });
}, 60_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

async function send(method: string, url: string, body?: Buffer, contentType?: string, scope?: string) {
  const answer = await gateway.answer({
    method,
    url,
    headers: { authorization: `Bearer ${await tokenFor(scope)}`, ...(contentType ? { 'content-type': contentType } : {}) },
    body: body ?? Buffer.alloc(0),
  });
  return { status: answer.statusCode, body: answer.body ? JSON.parse(answer.isBase64Encoded ? Buffer.from(answer.body, 'base64').toString() : answer.body) : undefined };
}

describe('the bundled functions', () => {
  it('create and read a resource (DynamoDB: a transaction, then a strongly consistent read)', async () => {
    const key = uniqueKey('bundled');
    const draft = { key, objectTypeProperty: { arrayOfFloatExample: [1.5] } };
    const created = await send('POST', '/demo/resource', Buffer.from(JSON.stringify(draft)), 'application/json');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ key, version: 1, objectTypeProperty: draft.objectTypeProperty });

    const read = await send('GET', `/demo/resource/${created.body.id}`);
    expect(read).toEqual({ status: 200, body: created.body });
  });

  it('store an uploaded image in S3 and its variant in DynamoDB', async () => {
    const sku = uniqueKey('sku');
    const image = png(2, 3);
    const uploaded = await send('POST', `/demo/resource/images?sku=${sku}&filename=bundled.png`, image, 'image/png', 'manage_products:demo');
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.stagedImages).toEqual([expect.stringMatching(/\/bundled\.png$/)]);

    const served = await fetch(uploaded.body.stagedImages[0]);
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
  });

  it('refuse a request without a valid token (the bundled authorizer)', async () => {
    const answer = await gateway.answer({ method: 'GET', url: '/demo/resource/key=anything', headers: { authorization: 'Bearer not-a-token' }, body: Buffer.alloc(0) });
    expect(answer.statusCode).toBe(401);
  });
});
