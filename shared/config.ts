/** The service's configuration, read from the environment that the CDK stack (in AWS) or the local gateway (on a laptop) sets for every function. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

export type SearchDatabaseSettings = { url: string } | { host: string; port: number; database: string; user: string };

export const config = {
  get tableName() {
    return required('TABLE_NAME');
  },
  get tokenIssuer() {
    return required('TOKEN_ISSUER');
  },
  get tokenAudience() {
    return required('TOKEN_AUDIENCE');
  },
  /**
   * Where the verifiers read the public keys: the API's own execute-api address in AWS, which
   * resolves from the moment the stack exists — the issuer may be a custom domain DNS does not
   * point at yet. The issuer's `/oauth/jwks` when unset.
   */
  get jwksUrl() {
    return process.env.JWKS_URL || `${required('TOKEN_ISSUER')}/oauth/jwks`;
  },
  /** KMS key (AWS) that signs tokens; unset in local mode. */
  get signingKeyArn() {
    return process.env.SIGNING_KEY_ARN;
  },
  /** PEM file holding the local signing key; local mode only. */
  get signingKeyFile() {
    return process.env.SIGNING_KEY_FILE;
  },
  get imagesBucket() {
    return required('IMAGES_BUCKET');
  },
  /** With `-c waf=true`: the secret the API's CloudFront distribution adds (shared/auth/caller-source.ts). */
  get edgeSecret() {
    return process.env.EDGE_SECRET;
  },
  /** Pending two-step uploads: a bucket nothing serves. */
  get imageUploadsBucket() {
    return required('IMAGE_UPLOADS_BUCKET');
  },
  /** Where image objects are served from: a CloudFront distribution in AWS, the local image server locally. */
  get imageBaseUrl() {
    return required('IMAGE_BASE_URL');
  },
  get tokenTtlSeconds() {
    return Number(process.env.TOKEN_TTL_SECONDS ?? 172_800);
  },
  /** The name of the table's `lastModifiedAt` index; empty when the deployment removed it (`-c lastModifiedIndex=false`). */
  get lastModifiedIndex() {
    return process.env.LAST_MODIFIED_INDEX || undefined;
  },
  /** How failed deliveries are retried: the first wait, doubling up to an hour, for so many hours (docs/subscriptions.md). */
  get subscriptionRetry() {
    return { firstDelayMs: Number(process.env.SUBSCRIPTION_RETRY_DELAY_MS || 60_000), giveUpAfterMs: Number(process.env.SUBSCRIPTION_RETRY_HOURS || 24) * 3_600_000 };
  },
  /**
   * The search engine (PostgreSQL): a connection URL locally (`SEARCH_DATABASE_URL`), or in AWS the
   * Aurora cluster's endpoint and a database user that signs in with an IAM token
   * (`SEARCH_DATABASE_HOST`, `_PORT`, `_NAME`, `_USER`): no password is stored anywhere.
   */
  get searchDatabase(): SearchDatabaseSettings {
    const url = process.env.SEARCH_DATABASE_URL;
    if (url) return { url };
    return {
      host: required('SEARCH_DATABASE_HOST'),
      port: Number(process.env.SEARCH_DATABASE_PORT || 5432),
      database: required('SEARCH_DATABASE_NAME'),
      user: required('SEARCH_DATABASE_USER'),
    };
  },
  /** Where the indexer keeps stream records it could not index (docs/design.md, "Search engine"). */
  get searchIndexFailuresBucket() {
    return required('SEARCH_INDEX_FAILURES_BUCKET');
  },
  /** `LOCAL_MODE=true` (set by the local stack): extension targets on loopback addresses are allowed. */
  get localMode() {
    return process.env.LOCAL_MODE === 'true';
  },
};
