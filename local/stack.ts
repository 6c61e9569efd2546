import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { access, constants, mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { hashSecret, isClientId } from '../shared/auth/client-secrets';
import { PROJECT_SCOPE_NAMES } from '../shared/auth/scopes';
import { authorizer as authorizerDeclaration } from '../functions/authorizer/function';
import { endpoints, fallback } from '../functions/endpoints';
import { deliverChanges } from '../functions/deliver-changes/function';
import { indexChanges } from '../functions/index-changes/function';
import type { Delivery } from '../shared/services/subscription-delivery';
import type { Subscription } from '../shared/domain/subscriptions/subscription';
import { onFailureObjectKey, startChangeStream, type ConsumeBatch } from './change-stream';
import { parseCorsOrigins } from '../shared/http/cors';
import { LAST_MODIFIED_INDEX_NAME } from '../shared/store/dynamodb/table-schema';
import { SEARCH_INDEX_VERSION } from '../shared/store/postgres/search-schema';
import { ensureTable, startDynamoDbLocal } from './dynamodb-local';
import { startImageServer, type RunningImageServer } from './image-server';
import { startPostgresLocal, type RunningPostgres } from './postgres-local';
import { startS3Local, type RunningS3 } from './s3-local';
import { createGateway } from './gateway';
import type { AuthorizerHandler, RouteHandler } from './lambda-events';
import { gatewayServer, type AnsweredRequest } from './http-server';
import { LocalStartError } from './local-start-error';
import { ensurePortFree, freePort, listen } from './port-probe';
import { asFunction, enforceTableGrants } from './table-access';

export interface LocalStackOptions {
  port: number;
  host: string;
  dataDir: string;
  dynamoDbPort?: number;
  s3Port?: number;
  postgresPort?: number;
  devClient: { clientId: string; clientSecret: string; projectKeys: string[] };
  onProgress?: (step: string) => void;
  onAnswered?: (answer: AnsweredRequest) => void;
  /** Each notification a subscription's destination took. */
  onDelivered?: (subscription: Subscription, delivery: Delivery) => void;
}

export interface LocalStack {
  url: string;
  dynamoDbEndpoint: string;
  s3Endpoint: string;
  /** PostgreSQL, the search engine: host and port (its URL holds a password). */
  searchEngine: string;
  /** The local image CDN (IMAGE_BASE_URL). */
  imageBaseUrl: string;
  tableName: string;
  devClientScopes: string[];
  stop(): Promise<void>;
}

export const LOCAL_TABLE_NAME = 'generic-resource-service';
export const LOCAL_AUDIENCE = 'generic-resource-service';
export const LOCAL_IMAGES_BUCKET = 'images';
export const LOCAL_IMAGE_UPLOADS_BUCKET = 'image-uploads';
export const LOCAL_SEARCH_INDEX_FAILURES_BUCKET = 'search-index-failures';

/** Everything `npm start` runs, on this machine: DynamoDB Local, the signing key, the development client, and the gateway in front of the very handlers that run in Lambda. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const progress = options.onProgress ?? (() => undefined);
  // Authentication looks no other id up: a development client of another would never get a token.
  if (!isClientId(options.devClient.clientId)) {
    throw new LocalStartError(`LOCAL_CLIENT_ID '${options.devClient.clientId}' is not a client id: 1–128 characters of A-Z a-z 0-9 . _ ~ -`, 9);
  }
  const dataDir = resolve(options.dataDir);
  await ensureWritable(dataDir);
  await ensurePortFree(options.port, 'the gateway', 'PORT', 6);

  progress('starting DynamoDB Local');
  const dynamoDb = await startDynamoDbLocal({ dataDir, port: options.dynamoDbPort ?? (await freePort()) });
  let s3: RunningS3 | undefined;
  let imageServer: RunningImageServer | undefined;
  let postgres: RunningPostgres | undefined;
  const stopEngines = async () => {
    await Promise.allSettled([dynamoDb.stop(), s3?.stop(), imageServer?.stop(), postgres?.stop()]);
  };
  try {
    progress('starting the S3 emulator');
    s3 = await startS3Local({
      dataDir,
      port: options.s3Port ?? (await freePort()),
      bucket: LOCAL_IMAGES_BUCKET,
      pendingBucket: LOCAL_IMAGE_UPLOADS_BUCKET,
      privateBuckets: [LOCAL_SEARCH_INDEX_FAILURES_BUCKET],
      corsOrigins: parseCorsOrigins(process.env.CORS_ORIGINS),
    });
    progress('starting PostgreSQL (search)');
    postgres = await startPostgresLocal({ dataDir, port: options.postgresPort ?? (await freePort()), onNotice: progress });
    // The local image CDN: serves the images bucket only, with the headers CloudFront adds.
    imageServer = await startImageServer({ bucketUrl: s3.bucketUrl, host: '127.0.0.1' });
    const streamArn = await ensureTable(dynamoDb.endpoint, LOCAL_TABLE_NAME);
    // Tools (the extension CLI, tests) find this stack's table here; LOCAL_MODE lets extension
    // actions be bound to http(s) handlers on loopback (docs/extensions.md).
    await writeFile(resolve(dataDir, 'endpoints.json'), JSON.stringify({ dynamoDbEndpoint: dynamoDb.endpoint, s3Endpoint: s3.endpoint, tableName: LOCAL_TABLE_NAME, imageBaseUrl: imageServer.url, searchDatabaseUrl: postgres.url, searchIndexFailuresBucket: LOCAL_SEARCH_INDEX_FAILURES_BUCKET }, null, 2));
    process.env.LOCAL_MODE = 'true';
    const url = `http://localhost:${options.port}`;
    // The handlers read their configuration from the environment, exactly as in Lambda.
    Object.assign(process.env, {
      TABLE_NAME: LOCAL_TABLE_NAME,
      AWS_ENDPOINT_URL_DYNAMODB: dynamoDb.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      IMAGES_BUCKET: LOCAL_IMAGES_BUCKET,
      IMAGE_UPLOADS_BUCKET: LOCAL_IMAGE_UPLOADS_BUCKET,
      SEARCH_INDEX_FAILURES_BUCKET: LOCAL_SEARCH_INDEX_FAILURES_BUCKET,
      IMAGE_BASE_URL: imageServer.url,
      AWS_REGION: process.env.AWS_REGION ?? 'local',
      // s3rver accepts only its own credentials; DynamoDB Local (shared database) accepts any.
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      TOKEN_ISSUER: url,
      TOKEN_AUDIENCE: LOCAL_AUDIENCE,
      SIGNING_KEY_FILE: await ensureLocalSigningKey(dataDir),
      LAST_MODIFIED_INDEX: LAST_MODIFIED_INDEX_NAME,
      SEARCH_DATABASE_URL: postgres.url,
      // Locally the gateway prints one readable line per request; handlers speak up only for
      // warnings and errors (AWS_LAMBDA_LOG_LEVEL=INFO npm start prints their request lines too).
      AWS_LAMBDA_LOG_LEVEL: process.env.AWS_LAMBDA_LOG_LEVEL ?? 'WARN',
    });

    await migrateSearchIndex(progress);

    progress('creating the development client');
    const devClientScopes = await registerDevClient(options.devClient);

    progress('starting the gateway');
    const server = gatewayServer(await createLocalGateway(), options.onAnswered);
    await listen(server, options.port, options.host);
    progress('starting the change stream');
    const changeStreams = await startChangeStreams(dynamoDb.endpoint, streamArn, options.onDelivered);

    return {
      url,
      dynamoDbEndpoint: dynamoDb.endpoint,
      s3Endpoint: s3.endpoint,
      searchEngine: new URL(postgres.url).host,
      imageBaseUrl: imageServer.url,
      tableName: LOCAL_TABLE_NAME,
      devClientScopes,
      stop: async () => {
        await Promise.all(changeStreams.map((stream) => stream.stop()));
        server.closeAllConnections();
        await new Promise((done) => server.close(done));
        await stopEngines();
      },
    };
  } catch (error) {
    await stopEngines();
    throw error;
  }
}

/**
 * The gateway in front of this process's handlers. The handlers read their configuration from
 * the environment, so set it first (startLocalStack does; in-process tests do it themselves).
 */
export async function createLocalGateway() {
  // Every endpoint's handler imported once, as Lambda would at cold start.
  const handlers = new Map(
    await Promise.all(
      [...endpoints, fallback].map(async (endpoint) => {
        const handler = (await import(`../functions/${endpoint.name}/handler.ts`)).handler as RouteHandler;
        return [endpoint, ((event, context) => asFunction(endpoint, () => handler(event, context))) as RouteHandler] as const;
      }),
    ),
  );
  // Each function reaches the table only as its declared permissions let it in AWS (IAM's rules).
  enforceTableGrants((await import('../shared/composition-root')).dynamoDb());
  const authorizer = (await import('../functions/authorizer/handler')).handler as AuthorizerHandler;
  return createGateway({
    endpoints,
    fallback,
    loadHandler: async (endpoint) => handlers.get(endpoint)!,
    authorizer: (event, context) => asFunction(authorizerDeclaration, () => authorizer(event, context)),
    // CORS_ORIGINS: the local counterpart of `-c corsOrigins` (shared/http/cors.ts).
    corsOrigins: parseCorsOrigins(process.env.CORS_ORIGINS),
  });
}

/**
 * The table's stream, read as the stack's two event source mappings read it in AWS, each consumer
 * from positions of its own (a slow index never delays a notification, and the reverse), with the
 * reading its function declares and run with its table grants: the subscriptions' deliveries, with
 * their retrier on a timer (every second, or the first retry delay when shorter), and the search
 * index's feed, whose batches given up go to its failure bucket as Lambda's on-failure records.
 */
async function startChangeStreams(endpoint: string, streamArn: string, onDelivered: LocalStackOptions['onDelivered']) {
  const deliver = (await import('../functions/deliver-changes/handler')).handler;
  const index = (await import('../functions/index-changes/handler')).handler;
  const { dynamoDb, s3, subscriptionDelivery } = await import('../shared/composition-root');
  const { config } = await import('../shared/config');
  subscriptionDelivery().onDelivered = onDelivered;
  const stream = { streamsEndpoint: endpoint, streamArn, table: { db: dynamoDb(), tableName: LOCAL_TABLE_NAME } };
  return [
    startChangeStream({
      ...stream,
      consumer: deliverChanges.name,
      reading: deliverChanges.tableStream!,
      consume: (event) => asFunction(deliverChanges, () => deliver(event)) as ReturnType<ConsumeBatch>,
      retry: { run: () => asFunction(deliverChanges, () => deliver({})), everyMs: Math.min(1_000, config.subscriptionRetry.firstDelayMs) },
    }),
    startChangeStream({
      ...stream,
      consumer: indexChanges.name,
      reading: indexChanges.tableStream!,
      consume: (event) => asFunction(indexChanges, () => index(event)),
      onFailure: async (record) => {
        const object = { Bucket: LOCAL_SEARCH_INDEX_FAILURES_BUCKET, Key: onFailureObjectKey(indexChanges.name, record), Body: JSON.stringify(record) };
        await s3().send(new PutObjectCommand(object));
      },
    }),
  ];
}

/**
 * The search index at this code's version before anything is served, as a deploy brings it: when it
 * changed, rebuilt beside the one of before (in slices, each reported), then the others dropped.
 */
async function migrateSearchIndex(progress: (step: string) => void): Promise<void> {
  const { searchIndexMigration, searchIndexVersions } = await import('../shared/composition-root');
  let indexed = 0;
  for (let run; !run?.complete; ) {
    const sliceEnd = Date.now() + 5_000;
    run = await searchIndexMigration().migrate(() => Date.now() < sliceEnd);
    indexed += run.indexed;
    if (run.rebuild) progress(`rebuilding the search index (version ${SEARCH_INDEX_VERSION}): ${run.rebuild.done} of ${run.rebuild.projects} projects, ${indexed} resources`);
  }
  if (indexed > 0) progress(`search index version ${SEARCH_INDEX_VERSION} rebuilt: ${indexed} resources`);
  const retired = await searchIndexVersions().retire();
  if (retired.length > 0) progress(`search index version ${retired.join(', ')} dropped`);
}

async function registerDevClient(devClient: LocalStackOptions['devClient']): Promise<string[]> {
  const { clientStore } = await import('../shared/composition-root');
  const scopes = devClient.projectKeys.flatMap((project) => PROJECT_SCOPE_NAMES.map((scope) => `${scope}:${project}`));
  await clientStore().put({
    clientId: devClient.clientId,
    name: 'local development client',
    secretHash: await hashSecret(devClient.clientSecret),
    scopes,
    createdAt: new Date().toISOString(),
  });
  return scopes;
}

/** The local token signing key: made once under the data dir, so tokens survive restarts. */
async function ensureLocalSigningKey(dataDir: string): Promise<string> {
  const file = resolve(dataDir, 'signing-key.pem');
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  return file;
}

async function ensureWritable(dataDir: string): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true });
    await access(dataDir, constants.W_OK);
  } catch {
    throw new LocalStartError(`The data directory ${dataDir} cannot be written. Set LOCAL_DATA_DIR to a writable directory.`, 5);
  }
}
