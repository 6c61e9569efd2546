import { CfnOutput, type CfnResource, CustomResource, Duration, Fn, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnStage, CorsHttpMethod, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition, type IEventSourceDlq } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { Distribution, ResponseHeadersPolicy, S3OriginAccessControl, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../shared/auth/authorizer-settings';
import type { AuthorizerContext } from '../shared/auth/principal';
import { CORS_POLICY, UPLOAD_CORS_POLICY } from '../shared/http/cors';
import { authorizer as authorizerFunction } from '../functions/authorizer/function';
import { deliverChanges } from '../functions/deliver-changes/function';
import { indexChanges } from '../functions/index-changes/function';
import { endpoints, fallback } from '../functions/endpoints';
import { routeKey, type FunctionDeclaration } from '../shared/http/declaration';
import { SEARCH_INDEX_VERSION } from '../shared/store/postgres/search-schema';
import { RESOURCE_PREFIX } from '../shared/store/dynamodb/keys';
import { PROJECT_READ_INDEXES } from '../shared/store/dynamodb/table-grants';
import { LAST_MODIFIED_INDEX_NAME, LAST_MODIFIED_INDEX_SORT_KEY, TABLE_PARTITION_KEY, TABLE_SORT_KEY } from '../shared/store/dynamodb/table-schema';
import { UPLOAD_EXPIRY_ATTRIBUTE } from '../shared/store/dynamodb/upload-store';
import { CustomDomain, type CustomDomainProps } from './constructs/custom-domain';
import { EndpointFunction } from './constructs/endpoint-function';
import { Monitoring, SEARCH_FAILURES_METRICS_FILTER } from './constructs/monitoring';
import { SearchEngine } from './constructs/search-engine';
import { ApiEdge } from './constructs/token-rate-limit';
import { grantPermissions, searchDatabaseUserOf } from './function-permissions';
import { createSigningKeys } from './signing-keys';

export interface GenericResourceServiceStackProps extends StackProps {
  region: string;
  cloudProvider: string;
  /** Optional: serve the API at `api.<region>.<cloudProvider>.<domain>`. */
  customDomain?: Omit<CustomDomainProps, 'api' | 'hostName'> & { domain: string };
  /** Browser origins allowed to call the API and PUT presigned uploads (shared/http/cors.ts); none by default. */
  corsOrigins?: readonly string[];
  /** Versions of the token signing key, the signing one first (infra/signing-keys.ts); default ['1']. */
  signingKeyVersions?: readonly string[];
  /** Where alarms are sent by e-mail (SNS); without it they only show in CloudWatch. */
  alarmEmail?: string;
  /** Lambda concurrency (account and region) that raises the LambdaConcurrency alarm; default 800. */
  concurrencyAlarmThreshold?: number;
  /**
   * Optional (`-c waf=true`): the API behind a CloudFront distribution carrying the per-source
   * rate limit of TokenRateLimitAcl (infra/constructs/token-rate-limit.ts, docs/security.md).
   */
  tokenRateLimit?: { webAclArn: string; edgeSecret: string };
  /**
   * A KEYS_ONLY index of each project's resources by lastModifiedAt, so that sorts and ranges on it
   * read about a page; on unless false (`-c lastModifiedIndex=false`), which saves its 2 index
   * write units per update and 1 per create and delete.
   */
  lastModifiedIndex?: boolean;
  /**
   * API Gateway's access log, one line per request (docs/performance.md prices it); on unless
   * `-c accessLog=false`. It is what shows the requests the gateway refuses before any function
   * (429 throttling, 413 too large), per client (monitoring.ts, "refusals per client").
   */
  accessLog?: boolean;
  /**
   * Aurora capacity units the search cluster keeps at idle: 0 (default) pauses it after 5 idle
   * minutes, storage only, ≈ 15 s to resume (searches meanwhile answer 503 with Retry-After);
   * `-c searchMinCapacity=0.5` keeps it awake. `searchMaxCapacity` (default 4) caps its scaling.
   */
  searchMinCapacity?: number;
  searchMaxCapacity?: number;
  /**
   * Search instances that may run at once (each holds a connection), instead of what the search
   * connection budget allows by default (infra/search-connection-budget.ts): `-c searchConcurrency`.
   */
  searchConcurrency?: number;
}

/** The search cluster's capacity, in Aurora capacity units, unless the deployment says otherwise. */
export const SEARCH_CAPACITY = { min: 0, max: 4 };

/**
 * The API's access log line (API Gateway context variables), one per request, every byte paid per
 * call (docs/performance.md). It says what the function's request line cannot, also of requests
 * refused before any function: the gateway's request id, the route, the status and latency the
 * client saw, who called (the authorizer's client id; the source IP, which is there
 * when no authorizer ran or it refused the token) and the gateway's, the authorizer's and the
 * integration's error. Never a header or a token. The time is the log event's own timestamp.
 */
export const API_ACCESS_LOG_FORMAT = {
  id: '$context.requestId',
  ip: '$context.identity.sourceIp',
  c: `$context.authorizer.${'clientId' satisfies keyof Extract<AuthorizerContext, { authenticated: 'true' }>}`,
  r: '$context.routeKey',
  s: '$context.status',
  ms: '$context.responseLatency',
  e: '$context.error.message',
  ae: '$context.authorizer.error',
  ie: '$context.integrationErrorMessage',
};

/** Days a stream record set aside by the search indexer is kept for `npm run search -- replay`. */
export const SEARCH_FAILURES_DAYS = 30;

/** Days a pending upload's object lives if never completed; days a replaced or deleted image version is kept. */
export const PENDING_UPLOAD_DAYS = 1;
export const IMAGE_NONCURRENT_DAYS = 30;

/** Every bucket: private, encrypted, reached over TLS only, owned by the account whoever writes to it. */
const PRIVATE_BUCKET = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  encryption: BucketEncryption.S3_MANAGED,
  enforceSSL: true,
  objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
};

/** Requests per second across the API, and the stricter limit of the token route. */
export const THROTTLE = { api: { rate: 1000, burst: 2000 }, token: { rate: 20, burst: 40 } };

/**
 * One deployment of the service for a region/cloudProvider pairing: an HTTP API whose routes are
 * derived from the endpoint declarations (functions/endpoints.ts), one function per endpoint with the
 * permissions it declares, the authorizer, the table, and the token signing key.
 */
export class GenericResourceServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: GenericResourceServiceStackProps) {
    super(scope, id, props);
    const lastModifiedIndex = props.lastModifiedIndex ?? true;
    // Server access logs are delivered under a bucket policy, not the legacy LogDeliveryWrite ACL
    // (the log bucket enforces bucket-owner ownership), whatever context the app is given (cdk.json
    // sets it too). Context must be set before any child exists.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);

    const table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: TABLE_SORT_KEY, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: TableEncryptionV2.awsManagedKey(),
      removalPolicy: RemovalPolicy.RETAIN,
      // Pending image uploads expire (epoch seconds); DynamoDB removes them some time after, for free.
      timeToLiveAttribute: UPLOAD_EXPIRY_ATTRIBUTE,
      // The subscriptions' source: every write, before and after (docs/subscriptions.md).
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      globalSecondaryIndexes: lastModifiedIndex
        ? [
            {
              indexName: LAST_MODIFIED_INDEX_NAME,
              partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
              sortKey: { name: LAST_MODIFIED_INDEX_SORT_KEY, type: AttributeType.STRING },
              projectionType: ProjectionType.KEYS_ONLY,
            },
          ]
        : undefined,
    });

    // Tokens are signed inside KMS; the private key never leaves it. The first key signs, all verify.
    const signingKeys = createSigningKeys(this, props.signingKeyVersions ?? ['1'], `Signs access tokens of the Generic Resource Service (${props.region}/${props.cloudProvider})`);
    const [signingKey] = signingKeys;

    // Server access logs of the images bucket (every write, delete and CloudFront fetch), kept 90 days.
    const accessLogs = new Bucket(this, 'AccessLogs', { ...PRIVATE_BUCKET, lifecycleRules: [{ expiration: Duration.days(90) }], removalPolicy: RemovalPolicy.RETAIN });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This bucket is the destination of the server access logs; logging its own log deliveries would only log the logs.',
    });
    // Images: a versioned bucket, served only through CloudFront (origin access control).
    const images = new Bucket(this, 'Images', {
      ...PRIVATE_BUCKET,
      versioned: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'images/',
      // Versions replaced or deleted (an image removed after a failed attach) are kept 30 days to recover from mistakes, then go.
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(IMAGE_NONCURRENT_DAYS), expiredObjectDeleteMarker: true }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Pending two-step uploads: a bucket of their own that no distribution serves, so nothing unchecked is ever
    // published; completion copies the checked object into the images bucket. Whatever is never completed goes after a day.
    const uploads = new Bucket(this, 'ImageUploads', {
      ...PRIVATE_BUCKET,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'image-uploads/',
      lifecycleRules: [{ expiration: Duration.days(PENDING_UPLOAD_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(PENDING_UPLOAD_DAYS) }],
      // Retained: CloudFormation cannot delete a bucket that holds objects, so an upload pending at
      // `cdk destroy` would fail the deletion; the lifecycle empties it within a day.
      removalPolicy: RemovalPolicy.RETAIN,
      // Browsers of the allowed origins PUT presigned uploads straight to this bucket.
      cors: props.corsOrigins?.length
        ? [
            {
              allowedOrigins: [...props.corsOrigins],
              allowedMethods: [HttpMethods.PUT],
              allowedHeaders: [...UPLOAD_CORS_POLICY.allowHeaders],
              exposedHeaders: [...UPLOAD_CORS_POLICY.exposeHeaders],
              maxAge: UPLOAD_CORS_POLICY.maxAgeSeconds,
            },
          ]
        : undefined,
    });
    // Served images are never sniffed into another type (an image that a browser would run as HTML).
    // CloudFront names are global to the account: the same stack in another region gets its own.
    const accountWideName = (what: string) => `${this.stackName}-${this.region}-${what}`;
    const imageHeaders = new ResponseHeadersPolicy(this, 'ImageResponseHeaders', {
      responseHeadersPolicyName: accountWideName('image-headers'),
      comment: 'nosniff on served images',
      securityHeadersBehavior: { contentTypeOptions: { override: true } },
    });
    const imageDistribution = new Distribution(this, 'ImageDistribution', {
      comment: `Images of the Generic Resource Service (${props.region}/${props.cloudProvider})`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(images, {
          originAccessControl: new S3OriginAccessControl(this, 'ImagesOriginAccess', { originAccessControlName: accountWideName('images') }),
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: imageHeaders,
      },
    });
    Validations.of(imageDistribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'Images are served worldwide by design (their URLs are part of resources of every project); there is no country to exclude.' },
      {
        id: 'AwsSolutions-CFR2',
        reason: 'The distribution only reads immutable objects from a private bucket through origin access control; a WAF web ACL (about $5/month plus per request) would break the nothing-at-idle cost model for no write path to protect.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason: 'Image reads are anonymous by design; the origin bucket keeps server access logs of every object fetched from it, and CloudFront standard logs would need ACLs on a log bucket that enforces bucket-owner ownership.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason: 'The distribution uses the default *.cloudfront.net certificate, whose minimum TLS version CloudFront fixes; TLS 1.2 as minimum needs a custom domain and an ACM certificate (docs/security.md, known limits).',
      },
    );

    const api = new HttpApi(this, 'Api', {
      apiName: `generic-resource-service-${props.region}-${props.cloudProvider}`,
      description: 'Generic Resource Service (commercetools family), project-scoped HTTP API',
      // API Gateway answers preflights itself and adds the headers to every answer of an allowed origin.
      corsPreflight: props.corsOrigins?.length
        ? {
            allowOrigins: [...props.corsOrigins],
            allowMethods: CORS_POLICY.allowMethods.map((method) => CorsHttpMethod[method]),
            allowHeaders: [...CORS_POLICY.allowHeaders],
            exposeHeaders: [...CORS_POLICY.exposeHeaders],
            maxAge: Duration.seconds(CORS_POLICY.maxAgeSeconds),
          }
        : undefined,
    });
    if (props.customDomain && props.tokenRateLimit) {
      // The custom domain maps straight to the API, around the distribution and its web ACL.
      throw new Error('waf=true does not combine with a custom domain yet: the domain would bypass the web ACL (docs/security.md).');
    }
    if (props.tokenRateLimit) {
      const edge = new ApiEdge(this, 'ApiEdge', { api, region: this.region, ...props.tokenRateLimit });
      new CfnOutput(this, 'EdgeApiUrl', {
        value: `https://${edge.distribution.distributionDomainName}`,
        description: 'The API behind AWS WAF: call this URL so that the per-source rate limit applies',
      });
    }
    let baseUrl = api.apiEndpoint;
    if (props.customDomain) {
      const { domain, ...certificate } = props.customDomain;
      const hostName = `api.${props.region}.${props.cloudProvider}.${domain}`;
      new CustomDomain(this, 'CustomDomain', { api, hostName, ...certificate });
      // Tokens name the address clients use (`iss`), and discovery answers with it.
      baseUrl = `https://${hostName}`;
    }

    const searchEngine = new SearchEngine(this, 'SearchEngine', {
      minCapacity: props.searchMinCapacity ?? SEARCH_CAPACITY.min,
      maxCapacity: props.searchMaxCapacity ?? SEARCH_CAPACITY.max,
      searchConcurrency: props.searchConcurrency,
    });
    // The stream records the indexer can never index (it sets each aside itself) or gave up on as
    // they expired (its mapping's on-failure destination): the records themselves, until
    // `npm run search -- replay` indexes and removes them.
    const searchFailures = new Bucket(this, 'SearchIndexFailures', {
      ...PRIVATE_BUCKET,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'search-index-failures/',
      lifecycleRules: [{ expiration: Duration.days(SEARCH_FAILURES_DAYS) }],
      // Request metrics: what arrives raises SearchIndexRecordsSetAside (monitoring.ts).
      metrics: [{ id: SEARCH_FAILURES_METRICS_FILTER }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const environment = {
      TABLE_NAME: table.tableName,
      TOKEN_ISSUER: baseUrl,
      // The verifiers read the public keys at the execute-api address: it resolves as soon as the
      // stack exists, before DNS points at a custom domain (the issuer then), and not through the WAF.
      JWKS_URL: `${api.apiEndpoint}/oauth/jwks`,
      TOKEN_AUDIENCE: 'generic-resource-service',
      SIGNING_KEY_ARN: signingKeys.map((key) => key.keyArn).join(','),
      IMAGES_BUCKET: images.bucketName,
      IMAGE_UPLOADS_BUCKET: uploads.bucketName,
      IMAGE_BASE_URL: `https://${imageDistribution.distributionDomainName}`,
      ...(lastModifiedIndex ? { LAST_MODIFIED_INDEX: LAST_MODIFIED_INDEX_NAME } : {}),
    };

    // Behind the WAF's distribution, the functions that authenticate clients (the brake counts per
    // source) need the edge secret to tell the viewer's address from the edge's.
    const edgeEnvironment = (declaration: FunctionDeclaration): Record<string, string> =>
      props.tokenRateLimit && declaration.permissions.includes('clients:countAttempts') ? { EDGE_SECRET: props.tokenRateLimit.edgeSecret } : {};
    // The $default route catches CORS preflights before API Gateway's corsPreflight can answer them (functions/route-not-found).
    const corsEnvironment = (declaration: FunctionDeclaration): Record<string, string> =>
      declaration === fallback && props.corsOrigins?.length ? { CORS_ORIGINS: props.corsOrigins.join(',') } : {};
    const failuresEnvironment = (declaration: FunctionDeclaration): Record<string, string> =>
      declaration.permissions.includes('searchFailures:write') ? { SEARCH_INDEX_FAILURES_BUCKET: searchFailures.bucketName } : {};
    // A function that signs in to the search engine runs in its network, is told where it is and as
    // whom, and runs at most as many instances as its user may hold connections.
    const searchReaders: EndpointFunction[] = [];
    const functionFor = (declaration: FunctionDeclaration, timeout?: Duration) => {
      const searchUser = searchDatabaseUserOf(declaration.permissions);
      const fn = new EndpointFunction(this, pascalCase(declaration.name), {
        handler: declaration.name,
        timeout,
        environment: { ...environment, ...edgeEnvironment(declaration), ...corsEnvironment(declaration), ...failuresEnvironment(declaration), ...(searchUser ? searchEngine.environment(searchUser) : {}) },
        filesBesideBundle: declaration.filesBesideBundle,
        network: searchUser ? { vpc: searchEngine.vpc, subnets: searchEngine.subnets } : undefined,
        reservedConcurrency: searchUser && searchEngine.budget[searchUser === 'reader' ? 'search' : 'indexer'],
      });
      if (searchUser === 'reader') searchReaders.push(fn);
      grantPermissions(fn, declaration.permissions, {
        table,
        readIndexes: lastModifiedIndex ? PROJECT_READ_INDEXES : [],
        signingKey,
        publicKeys: signingKeys,
        images,
        uploads,
        searchEngine,
        searchFailures,
      });
      return fn;
    };

    const authorizerLambda = functionFor(authorizerFunction);
    const authorizer = new HttpLambdaAuthorizer('TokenAuthorizer', authorizerLambda, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: ['$request.header.Authorization'],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    const endpointLambdas = endpoints.map((endpoint) => {
      const fn = functionFor(endpoint);
      for (const route of endpoint.routes) {
        const httpRoute = new HttpRoute(this, `Route${pascalCase(route.method)}${pascalCase(route.path)}`, {
          httpApi: api,
          routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
          integration: new HttpLambdaIntegration(`${pascalCase(endpoint.name)}Integration`, fn),
          // Every route but a public one takes a token; the function then checks the route's scopes.
          authorizer: route.access.kind === 'public' ? undefined : authorizer,
        });
        if (route.access.kind === 'public') {
          Validations.of(httpRoute).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason: `${routeKey(route)} is declared public (${route.summary}) No bearer token can exist before it: the OAuth endpoints authenticate clients with HTTP Basic themselves, the others serve public documents.`,
          });
        }
      }
      return fn;
    });
    const notFoundLambda = functionFor(fallback);
    const defaultRoute = new HttpRoute(this, 'RouteDefault', {
      httpApi: api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('NotFoundIntegration', notFoundLambda),
    });
    Validations.of(defaultRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: '$default serves no data: it answers 404 NotFound or 405 MethodNotAllowed for paths outside the route table, and CORS preflights (which need no token).',
    });

    // The table's stream feeds two consumers, each reading it on its own (a broken index never delays
    // a notification, and the reverse) as its declaration says: resource items only, filtered for
    // free before any invocation, failed batches bisected.
    const readResourceChanges = (fn: EndpointFunction, declaration: FunctionDeclaration, onFailure: IEventSourceDlq) => {
      const reading = declaration.tableStream;
      if (!reading) throw new Error(`${declaration.name} reads the table's stream but declares no tableStream`);
      fn.addEventSource(
        new DynamoEventSource(table, {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: reading.batchSize,
          maxBatchingWindow: reading.batchingWindowSeconds > 0 ? Duration.seconds(reading.batchingWindowSeconds) : undefined,
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          retryAttempts: reading.retryAttempts === 'until-expired' ? -1 : reading.retryAttempts,
          onFailure,
          filters: [FilterCriteria.filter({ dynamodb: { Keys: { sk: { S: FilterRule.beginsWith(RESOURCE_PREFIX) } } } })],
        }),
      );
    };
    // Subscriptions; every minute the same function retries parked notifications. A batch it keeps
    // failing goes, as its stream coordinates, to a queue an operator reads within the stream's 24 h.
    const consumer = functionFor(deliverChanges, Duration.minutes(1));
    const failedBatches = new Queue(this, 'ChangeStreamFailedBatches', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    Validations.of(failedBatches).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself the on-failure destination of a reader of the change stream; nothing consumes it but an operator.' });
    readResourceChanges(consumer, deliverChanges, new SqsDlq(failedBatches));
    new Rule(this, 'RetryParkedNotifications', { schedule: Schedule.rate(Duration.minutes(1)), targets: [new LambdaFunction(consumer)] });
    // The search index. A batch that meets the cluster paused or away is retried until it is back;
    // records that expire meanwhile go, whole, to the failures bucket (Lambda writes the invocation
    // record with the batch to an S3 destination; the function's 'searchFailures:write' grants it).
    // Its timeout leaves a migration or reindex slice minutes; a stream batch ends far sooner
    // (shared/aws/postgres.ts: 20 s to connect, 30 s per statement).
    const indexer = functionFor(indexChanges, Duration.minutes(5));
    readResourceChanges(indexer, indexChanges, { bind: () => ({ destination: searchFailures.bucketArn }) });

    // The index's schema migrates at deploy (shared/store/postgres/search-schema.ts, its version):
    // the indexer answers CloudFormation until the version is built, and its failure fails the
    // deploy. Searches move to the new version only after it (the functions that read the index are
    // updated after the migration), and the versions no code reads any more are retired after them.
    const indexMigrations = new Provider(this, 'SearchIndexMigrations', {
      onEventHandler: indexer,
      isCompleteHandler: indexer,
      queryInterval: Duration.seconds(10),
      // The provider's longest: a rebuild of more (≈ 1.6 million resources at the measured rate) fails the deploy.
      totalTimeout: Duration.hours(1),
      logGroup: new LogGroup(this, 'SearchIndexMigrationsLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    });
    acknowledgeMigrationProvider(indexMigrations, indexer);
    const indexStep = (id: string, step: 'migrate' | 'retire') =>
      new CustomResource(this, id, {
        serviceToken: indexMigrations.serviceToken,
        resourceType: `Custom::${id}`,
        properties: { Step: step, IndexVersion: String(SEARCH_INDEX_VERSION) },
      });
    const migration = indexStep('SearchIndexMigration', 'migrate');
    migration.node.addDependency(searchEngine);
    const retirement = indexStep('SearchIndexRetirement', 'retire');
    for (const reader of searchReaders) {
      // On the function alone: its security group's rule into the cluster comes before the migration.
      reader.node.defaultChild!.node.addDependency(migration);
      retirement.node.addDependency(reader.node.defaultChild!);
    }

    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: THROTTLE.api.rate, throttlingBurstLimit: THROTTLE.api.burst };
    // routeSettings is a raw JSON map in CloudFormation's own (PascalCase) names.
    // Introspection authenticates clients too (a secret check per request): the same brake on guessing as the token route.
    const tokenThrottle = { ThrottlingRateLimit: THROTTLE.token.rate, ThrottlingBurstLimit: THROTTLE.token.burst };
    stage.routeSettings = { [routeKey({ method: 'POST', path: '/oauth/token' })]: tokenThrottle, [routeKey({ method: 'POST', path: '/oauth/introspect' })]: tokenThrottle };
    let apiAccessLogs: LogGroup | undefined;
    if (props.accessLog ?? true) {
      apiAccessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.RETAIN });
      stage.accessLogSettings = { destinationArn: apiAccessLogs.logGroupArn, format: JSON.stringify(API_ACCESS_LOG_FORMAT) };
    } else {
      Validations.of(api.defaultStage!).acknowledge({
        id: 'AwsSolutions-APIG1',
        reason:
          'Every request that reaches a function leaves its request line (route, status, latency, project, client id, correlation id); the authorizer logs each refusal with its reason and source IP; 429 throttles and other refusals of the gateway are counted by its 4xx/5xx metrics. This deployment turned the access log off (-c accessLog=false), and with it the view of the refusals of the gateway itself per client.',
      });
    }

    new Monitoring(this, 'Monitoring', {
      api,
      table,
      functions: [authorizerLambda, ...endpointLambdas, notFoundLambda, consumer, indexer],
      authorizerLogGroup: authorizerLambda.logGroup,
      accessLogGroup: apiAccessLogs,
      requestLogGroups: [...endpointLambdas, notFoundLambda].map((fn) => fn.logGroup),
      alarmEmail: props.alarmEmail,
      concurrencyThreshold: props.concurrencyAlarmThreshold,
      stackName: id,
      changeConsumer: { fn: consumer, logGroup: consumer.logGroup, failedBatches },
      search: { cluster: searchEngine.cluster, budget: searchEngine.budget, maxCapacity: searchEngine.maxCapacity, indexer, failures: searchFailures, searchLogGroup: searchReaders[0]!.logGroup },
    });

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint, description: 'Base URL of the API' });
    // At the address clients use (the custom domain when there is one), as the tokens' issuer and discovery name it.
    new CfnOutput(this, 'TokenUrl', { value: `${baseUrl}/oauth/token`, description: 'OAuth 2.0 token endpoint' });
    new CfnOutput(this, 'JwksUrl', { value: `${baseUrl}/oauth/jwks`, description: 'Public keys of the access tokens' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'ImagesBucketName', { value: images.bucketName });
    new CfnOutput(this, 'ImageBaseUrl', { value: `https://${imageDistribution.distributionDomainName}` });
    new CfnOutput(this, 'SigningKeyArn', { value: signingKey.keyArn });
    new CfnOutput(this, 'SubscriptionDeliveryRoleArn', {
      value: consumer.role!.roleArn,
      description: 'Sends subscription notifications: name it in the policy of a queue, topic or event bus a subscription sends to',
    });
    new CfnOutput(this, 'SearchIndexerFunctionName', {
      value: indexer.functionName,
      description: 'Keeps the search index; the only place besides search that reaches the search cluster (its network has no way in from outside)',
    });
    new CfnOutput(this, 'AuthorizationServerMetadataUrl', { value: `${baseUrl}/.well-known/oauth-authorization-server`, description: 'OAuth 2.0 discovery (RFC 8414)' });
  }

  /**
   * The search network's two zones, as CloudFormation picks them in the region it deploys to: no
   * lookup at synth (no cdk.context.json to keep), the same template for any account.
   */
  override get availabilityZones(): string[] {
    return [0, 1].map((index) => Fn.select(index, Fn.getAzs()));
  }
}

/** cdk-nag findings of the migrations' provider framework (its functions, their roles, its waiter), each checked. */
function acknowledgeMigrationProvider(provider: Provider, handler: EndpointFunction): void {
  // The framework's functions invoke the handler, and its waiter the framework's own, each by any version (`<arn>:*`).
  const invokedVersions = [handler, provider.node.findChild('framework-isComplete'), provider.node.findChild('framework-onTimeout')].map(
    (fn) => `AwsSolutions-IAM5[Resource::<${Stack.of(provider).resolve((fn.node.defaultChild as CfnResource).logicalId)}.Arn>:*]`,
  );
  Validations.of(provider).acknowledge(
    ...invokedVersions.map((id) => ({
      id,
      reason: 'CDK\'s provider framework grants its functions the invocation of the indexer (any version of it) and its waiter the invocation of the framework\'s own functions; nothing else.',
    })),
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: 'The provider framework\'s functions log with AWSLambdaBasicExecutionRole, which grants only logs:CreateLogGroup/CreateLogStream/PutLogEvents.',
    },
    {
      id: 'AwsSolutions-SF1',
      reason: 'The waiter state machine only calls the framework\'s isComplete function again until the index is built; the indexer logs each slice, and CloudFormation shows the outcome.',
    },
    { id: 'AwsSolutions-SF2', reason: 'No X-Ray tracing in this stack (docs/design.md, Observability of a request); the waiter runs at deploy only.' },
  );
}

function pascalCase(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase()).join('');
}
