import { createDynamoDbClient } from './aws/clients';
import { createKmsClient } from './aws/kms';
import { AwsDestinations } from './aws/destinations';
import { AwsLambdaInvoker, createLambdaClient } from './aws/lambda';
import { createPostgresPool } from './aws/postgres';
import { createPresigningS3Client, createS3Client } from './aws/s3';
import { FileSigningKeys, KmsSigningKeys, type SigningKeys } from './auth/signing-keys';
import { createTokenVerifier } from './auth/token-verifier';
import { config } from './config';
import { ComplexPathService } from './services/complex-path-service';
import type { LambdaInvoker } from './services/extension-forwarding/lambda-invoker';
import { ExtensionService } from './services/extension-service';
import { ImageService } from './services/image-service';
import { JsonValueService } from './services/json-value-service';
import { ResourceQueryService } from './services/query-service';
import { ResourceSearchService } from './services/search-service';
import { SearchFeed } from './services/search-feed';
import { SearchIndexing } from './services/search-indexing';
import { SearchIndexMigration } from './services/search-index-migration';
import { ResourceEditService } from './services/resource-edit-service';
import { ResourceService } from './services/resource-service';
import { SubscriptionDelivery } from './services/subscription-delivery';
import { SubscriptionService } from './services/subscription-service';
import { UploadTicketService } from './services/upload-ticket-service';
import type { ClientStore } from './store/client-store';
import type { ComplexPathStore } from './store/complex-path-store';
import { DynamoDbClientStore } from './store/dynamodb/client-store';
import { DynamoDbComplexPathStore } from './store/dynamodb/complex-path-store';
import { DynamoDbExtensionStore } from './store/dynamodb/extension-store';
import { idempotencyRecordsOf } from './store/dynamodb/idempotency-records';
import { DynamoDbJsonValueStore } from './store/dynamodb/json-value-store';
import { DynamoDbResourceQueryStore } from './store/dynamodb/resource-query-store';
import { DynamoDbResourceStore } from './store/dynamodb/resource-store';
import { DynamoDbSubscriptionStore } from './store/dynamodb/subscription-store';
import { DynamoDbUploadStore } from './store/dynamodb/upload-store';
import { DynamoDbVariantStore } from './store/dynamodb/variant-store';
import type { ExtensionStore } from './store/extension-store';
import { PostgresSearchIndexContents } from './store/postgres/search-index-contents';
import { PostgresSearchIndexVersions } from './store/postgres/search-index-versions';
import { PostgresSearchIndexWriter } from './store/postgres/search-index-writer';
import { PostgresSearchIndex } from './store/postgres/search-index';
import type { SearchIndex, SearchIndexWriter } from './store/search-index';
import type { SearchIndexContents } from './store/search-index-contents';
import type { SearchIndexVersions } from './store/search-index-versions';
import type { SearchIndexFailures } from './store/search-index-failures';
import { resourceChangeOf, type StreamRecord } from './store/dynamodb/stream-records';
import type { ImageStorage } from './store/image-storage';
import type { JsonValueStore } from './store/json-value-store';
import type { ResourceQueryStore, ResourceStore } from './store/resource-store';
import type { PendingUploadSigner } from './store/pending-upload-signer';
import { S3ImageStorage } from './store/s3/image-storage';
import { S3PendingUploadSigner } from './store/s3/pending-upload-signer';
import { S3SearchIndexFailures } from './store/s3/search-index-failures';
import type { SubscriptionStore } from './store/subscription-store';
import type { UploadStore } from './store/upload-store';
import type { VariantStore } from './store/variant-store';

/**
 * The composition root: the one place that wires this process's AWS clients, stores and services
 * together — a Lambda function instance, or the local stack serving every handler in one process.
 * Each part is built on first use and then reused across invocations. One accessor per part, each
 * marked pure, so a function's bundle holds only the parts its handler reaches (bench/bundles.ts).
 * Handlers, the local stack and tests ask here; services and stores take their parts as
 * constructor arguments and never import this file (tests hand them fakes instead).
 */

/** `build` on the first call, the same value after; a build that throws is tried again next time. */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

// ---- AWS clients -----------------------------------------------------------------------------

export const dynamoDb = /* @__PURE__ */ once(createDynamoDbClient);
export const s3 = /* @__PURE__ */ once(createS3Client);
export const s3ForPresigning = /* @__PURE__ */ once(createPresigningS3Client);
export const lambda = /* @__PURE__ */ once(createLambdaClient);
/** The search engine (PostgreSQL): one pool per use and process (in AWS a function has one use). */
export const searchPool = /* @__PURE__ */ once(() => createPostgresPool(config.searchDatabase, 'search'));
export const indexingPool = /* @__PURE__ */ once(() => createPostgresPool(config.searchDatabase, 'indexing'));
export const closeSearchPools = async (): Promise<void> => void (await Promise.all([searchPool().end(), indexingPool().end()]));
export const lambdaInvoker = /* @__PURE__ */ once((): LambdaInvoker => new AwsLambdaInvoker(lambda));

// ---- Stores ----------------------------------------------------------------------------------

export const resourceStore = /* @__PURE__ */ once((): ResourceStore => new DynamoDbResourceStore(dynamoDb(), config.tableName));
export const resourceQueryStore = /* @__PURE__ */ once(
  (): ResourceQueryStore => new DynamoDbResourceQueryStore(dynamoDb(), config.tableName, config.lastModifiedIndex),
);
export const clientStore = /* @__PURE__ */ once((): ClientStore => new DynamoDbClientStore(dynamoDb(), config.tableName));
export const complexPathStore = /* @__PURE__ */ once((): ComplexPathStore => new DynamoDbComplexPathStore(dynamoDb(), config.tableName));
export const extensionStore = /* @__PURE__ */ once((): ExtensionStore => new DynamoDbExtensionStore(dynamoDb(), config.tableName));
export const jsonValueStore = /* @__PURE__ */ once((): JsonValueStore => new DynamoDbJsonValueStore(dynamoDb(), config.tableName));
export const variantStore = /* @__PURE__ */ once((): VariantStore => new DynamoDbVariantStore(dynamoDb(), config.tableName));
export const uploadStore = /* @__PURE__ */ once((): UploadStore => new DynamoDbUploadStore(dynamoDb(), config.tableName));
export const subscriptionStore = /* @__PURE__ */ once((): SubscriptionStore => new DynamoDbSubscriptionStore(dynamoDb(), config.tableName));
export const imageStorage = /* @__PURE__ */ once(
  (): ImageStorage => new S3ImageStorage(s3, config.imagesBucket, config.imageBaseUrl, config.imageUploadsBucket),
);
/** Per project: where Powertools keeps the records of Idempotency-Keys (shared/http/idempotency-keys.ts). */
export const idempotencyRecords = (projectKey: string) => idempotencyRecordsOf(dynamoDb(), config.tableName, projectKey);
export const searchIndexWriter = /* @__PURE__ */ once((): SearchIndexWriter => new PostgresSearchIndexWriter(indexingPool()));
export const searchIndexContents = /* @__PURE__ */ once((): SearchIndexContents => new PostgresSearchIndexContents(indexingPool()));
export const searchIndex = /* @__PURE__ */ once((): SearchIndex => new PostgresSearchIndex(searchPool()));
export const searchIndexVersions = /* @__PURE__ */ once((): SearchIndexVersions => new PostgresSearchIndexVersions(indexingPool()));
export const searchIndexFailures = /* @__PURE__ */ once((): SearchIndexFailures => new S3SearchIndexFailures(s3, () => config.searchIndexFailuresBucket));
export const pendingUploadSigner = /* @__PURE__ */ once((): PendingUploadSigner => new S3PendingUploadSigner(config.imageUploadsBucket, s3ForPresigning));

// ---- Tokens ----------------------------------------------------------------------------------

/** KMS keys in AWS (SIGNING_KEY_ARN, comma-separated for rotation), a PEM file in local mode. */
export const signingKeys = /* @__PURE__ */ once((): SigningKeys => {
  const kmsKeys = config.signingKeyArn?.split(',').filter(Boolean);
  if (kmsKeys?.length) return new KmsSigningKeys(kmsKeys as [string, ...string[]], createKmsClient());
  if (config.signingKeyFile) return new FileSigningKeys(config.signingKeyFile);
  throw new Error('Neither SIGNING_KEY_ARN nor SIGNING_KEY_FILE is set');
});

export const tokenSettings = () => ({ issuer: config.tokenIssuer, audience: config.tokenAudience, ttlSeconds: config.tokenTtlSeconds });

/**
 * The verifier of the authorizer and of introspection. It needs public keys only: in AWS it reads
 * them from the API's JWKS endpoint over HTTPS (`JWKS_URL`; cached per instance, re-read for an
 * unknown `kid`), so neither function carries a KMS client (27 KB) nor needs a KMS permission;
 * locally from the key file.
 */
export const publishedKeysVerifier = /* @__PURE__ */ once(() =>
  createTokenVerifier(config.signingKeyFile ? new FileSigningKeys(config.signingKeyFile) : undefined, { ...tokenSettings(), jwksUri: config.jwksUrl }),
);

// ---- Services (the use cases) ----------------------------------------------------------------

export const resourceService = /* @__PURE__ */ once(() => new ResourceService(resourceStore()));
export const resourceEditService = /* @__PURE__ */ once(() => new ResourceEditService(resourceStore()));
export const queryService = /* @__PURE__ */ once(() => new ResourceQueryService(resourceQueryStore()));
export const searchService = /* @__PURE__ */ once(() => new ResourceSearchService(searchIndex(), resourceQueryStore()));
export const searchIndexing = /* @__PURE__ */ once(() => new SearchIndexing(resourceQueryStore(), searchIndexWriter(), searchIndexContents()));
export const searchIndexMigration = /* @__PURE__ */ once(() => new SearchIndexMigration(searchIndexVersions(), searchIndexing()));
export const searchFeed = /* @__PURE__ */ once(() => new SearchFeed(searchIndexWriter(), searchIndexFailures(), (record) => resourceChangeOf(record as StreamRecord)));
export const imageService = /* @__PURE__ */ once(() => new ImageService(variantStore(), imageStorage(), uploadStore()));
export const uploadTicketService = /* @__PURE__ */ once(() => new UploadTicketService(pendingUploadSigner(), uploadStore()));
export const complexPathService = /* @__PURE__ */ once(() => new ComplexPathService(resourceStore(), complexPathStore()));
export const jsonValueService = /* @__PURE__ */ once(() => new JsonValueService(jsonValueStore()));
export const extensionService = /* @__PURE__ */ once(
  () => new ExtensionService({ bindings: extensionStore(), lambda: lambdaInvoker(), localMode: config.localMode }),
);
export const subscriptionService = /* @__PURE__ */ once(() => new SubscriptionService(subscriptionStore(), { localMode: config.localMode }));
export const subscriptionDelivery = /* @__PURE__ */ once(
  () => new SubscriptionDelivery(subscriptionStore(), new AwsDestinations(), { localMode: config.localMode, retry: config.subscriptionRetry }),
);
