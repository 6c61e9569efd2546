import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, Token, Validations, type StackProps } from 'aws-cdk-lib';
import { CfnStage, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Distribution, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../shared/auth/authorizer-settings';
import { fallbackRoute, routeKey, routes, type Route } from '../shared/http/routes';
import { TABLE_PARTITION_KEY, TABLE_SORT_KEY } from '../shared/store/dynamodb/table-schema';
import { FAILURE_COUNTER_ATTRIBUTES } from '../shared/store/dynamodb/client-store';
import { clientKey } from '../shared/store/dynamodb/keys';
import { UPLOAD_EXPIRY_ATTRIBUTE } from '../shared/store/dynamodb/upload-store';
import { copyApiDocsAssets } from './api-docs-assets';
import { CustomDomain, type CustomDomainProps } from './constructs/custom-domain';
import { EndpointFunction } from './constructs/endpoint-function';
import { functionPermissions, type Permission } from './function-permissions';

export interface GenericResourceServiceStackProps extends StackProps {
  region: string;
  cloudProvider: string;
  /** Optional: serve the API at `api.<region>.<cloudProvider>.<domain>`. */
  customDomain?: Omit<CustomDomainProps, 'api' | 'hostName'> & { domain: string };
}

/**
 * The API's access log line (API Gateway context variables): one per request, and the only log
 * line a successful request writes, so every byte is paid per call (docs/performance.md). Short
 * keys: request id, source IP, method, path, status, latency (ms), the client id the authorizer
 * verified (never a token), the authorizer's and the integration's error. The time is the log
 * event's own timestamp; per-route counts, latency and errors are API Gateway's route metrics.
 */
export const API_ACCESS_LOG_FORMAT = {
  id: '$context.requestId',
  ip: '$context.identity.sourceIp',
  m: '$context.httpMethod',
  p: '$context.path',
  s: '$context.status',
  ms: '$context.responseLatency',
  c: '$context.authorizer.clientId',
  ae: '$context.authorizer.error',
  ie: '$context.integrationErrorMessage',
};

/** Requests per second across the API, and the stricter limit of the token route. */
export const THROTTLE = { api: { rate: 1000, burst: 2000 }, token: { rate: 20, burst: 40 } };

/**
 * One deployment of the service for a region/cloudProvider pairing: an HTTP API whose routes are
 * the route table's, one function per route, the authorizer, the table, and the token signing key.
 */
export class GenericResourceServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: GenericResourceServiceStackProps) {
    super(scope, id, props);
    // Server access logs are delivered under a bucket policy, not the legacy LogDeliveryWrite ACL
    // (the log bucket enforces bucket-owner ownership). Context must be set before any child exists.
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
    });

    // Tokens are signed inside KMS; the private key never leaves it.
    const signingKey = new Key(this, 'TokenSigningKey', {
      keySpec: KeySpec.RSA_2048,
      keyUsage: KeyUsage.SIGN_VERIFY,
      description: `Signs access tokens of the Generic Resource Service (${props.region}/${props.cloudProvider})`,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Server access logs of the images bucket (every write, delete and CloudFront fetch), kept 90 days.
    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This bucket is the destination of the server access logs; logging its own log deliveries would only log the logs.',
    });
    // Images: a private, encrypted, versioned bucket, served only through CloudFront (origin access control).
    const images = new Bucket(this, 'Images', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'images/',
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const imageDistribution = new Distribution(this, 'ImageDistribution', {
      comment: `Images of the Generic Resource Service (${props.region}/${props.cloudProvider})`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(images),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      },
    });
    Validations.of(imageDistribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Images are served worldwide by design (their URLs are part of resources of every project); there is no country to exclude.',
      },
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
    });
    if (props.customDomain) {
      const { domain, ...certificate } = props.customDomain;
      new CustomDomain(this, 'CustomDomain', { api, hostName: `api.${props.region}.${props.cloudProvider}.${domain}`, ...certificate });
    }

    const environment = {
      TABLE_NAME: table.tableName,
      TOKEN_ISSUER: api.apiEndpoint,
      TOKEN_AUDIENCE: 'generic-resource-service',
      SIGNING_KEY_ARN: signingKey.keyArn,
      IMAGES_BUCKET: images.bucketName,
      IMAGE_BASE_URL: `https://${imageDistribution.distributionDomainName}`,
    };

    const grant = (fn: IFunction, permissions: readonly Permission[]) => {
      /** Actions on image objects, granted in one statement on image keys (`<projectKey>/images/<uuid>/<file>`) only. */
      const imageActions = new Set<string>();
      for (const permission of permissions) {
        if (permission === 'table:read') table.grantReadData(fn);
        if (permission === 'table:write') table.grantWriteData(fn);
        if (permission === 'signingKey:sign') signingKey.grant(fn, 'kms:Sign');
        if (permission === 'signingKey:publicKey') signingKey.grant(fn, 'kms:GetPublicKey');
        if (permission === 'clients:countFailures') {
          // The brute-force brake's counters, and nothing else: client items only, these attributes only.
          fn.addToRolePolicy(
            new PolicyStatement({
              actions: ['dynamodb:UpdateItem'],
              resources: [table.tableArn],
              conditions: {
                'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [clientKey('*').pk] },
                'ForAllValues:StringEquals': { 'dynamodb:Attributes': FAILURE_COUNTER_ATTRIBUTES },
                StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_NEW'] },
              },
            }),
          );
        }
        // Exactly the calls of the image storage: put and (to undo a failed upload) delete; HEAD and GET of an
        // uploaded object; and presigning, where S3 checks the signer's s3:PutObject when the URL is used.
        if (permission === 'images:write') ['s3:PutObject', 's3:DeleteObject'].forEach((action) => imageActions.add(action));
        if (permission === 'images:presignPut') imageActions.add('s3:PutObject');
        if (permission === 'images:read') {
          imageActions.add('s3:GetObject');
          // Without s3:ListBucket, S3 answers 403 instead of 404 for an object that is not there (an upload not sent yet).
          fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [images.bucketArn] }));
        }
        if (permission === 'extensions:invoke') {
          fn.addToRolePolicy(
            new PolicyStatement({
              actions: ['lambda:InvokeFunction'],
              resources: [this.formatArn({ service: 'lambda', resource: 'function', resourceName: 'gr-extension-*', arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
            }),
          );
          Validations.of(fn).acknowledge({
            id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:lambda:${nagValue(this.region, 'AWS::Region')}:${nagValue(this.account, 'AWS::AccountId')}:function:gr-extension-*]`,
            reason: 'Projects bind extension actions to functions chosen at run time; the gr-extension- name prefix is the boundary of what may be invoked (docs/extensions.md).',
          });
        }
      }
      if (imageActions.size > 0) {
        fn.addToRolePolicy(new PolicyStatement({ actions: [...imageActions], resources: [images.arnForObjects('*/images/*')] }));
        Validations.of(fn).acknowledge({
          id: `AwsSolutions-IAM5[Resource::<${this.resolve((images.node.defaultChild as CfnBucket).logicalId)}.Arn>/*/images/*]`,
          reason: 'Image keys hold a project key and a fresh uuid chosen per upload, so the function can only be granted the images/ key pattern, not single objects.',
        });
      }
    };
    const functionFor = (handler: keyof typeof functionPermissions) => {
      const fn = new EndpointFunction(this, pascalCase(handler), {
        handler,
        environment,
        ...(handler === 'get-api-docs' ? { commandHooks: copyApiDocsAssets } : {}),
      });
      grant(fn, functionPermissions[handler]);
      return fn;
    };

    const authorizer = new HttpLambdaAuthorizer('TokenAuthorizer', functionFor('authorizer'), {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: ['$request.header.Authorization'],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });

    const functions = new Map<string, IFunction>();
    for (const route of routes as readonly Route[]) {
      const handler = route.handler as keyof typeof functionPermissions;
      const fn = functions.get(handler) ?? functionFor(handler);
      functions.set(handler, fn);
      const httpRoute = new HttpRoute(this, `Route${pascalCase(route.method)}${pascalCase(route.path)}`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method as keyof typeof HttpMethod]),
        integration: new HttpLambdaIntegration(`${pascalCase(handler)}Integration`, fn),
        authorizer: route.access.kind === 'project' ? authorizer : undefined,
      });
      if (route.access.kind === 'public') {
        Validations.of(httpRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${routeKey(route)} is public in the route table (${route.summary}) No bearer token can exist before it: the OAuth endpoints authenticate clients with HTTP Basic themselves, the others serve public documents.`,
        });
      }
    }
    const defaultRoute = new HttpRoute(this, 'RouteDefault', {
      httpApi: api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('NotFoundIntegration', functionFor(fallbackRoute.handler as 'route-not-found')),
    });
    Validations.of(defaultRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: '$default serves no data: it answers 404 NotFound or 405 MethodNotAllowed for paths outside the route table.',
    });

    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    // Detailed metrics: count, latency, 4xx and 5xx per route, from API Gateway itself, so the
    // functions write no metrics line per request (one log line per request: the access log's).
    stage.defaultRouteSettings = { throttlingRateLimit: THROTTLE.api.rate, throttlingBurstLimit: THROTTLE.api.burst, detailedMetricsEnabled: true };
    // routeSettings is a raw JSON map in CloudFormation's own (PascalCase) names.
    stage.routeSettings = {
      [routeKey({ method: 'POST', path: '/oauth/token' })]: {
        ThrottlingRateLimit: THROTTLE.token.rate,
        ThrottlingBurstLimit: THROTTLE.token.burst,
      },
      // Introspection authenticates clients too (scrypt per request): the same brake on guessing.
      [routeKey({ method: 'POST', path: '/oauth/introspect' })]: {
        ThrottlingRateLimit: THROTTLE.token.rate,
        ThrottlingBurstLimit: THROTTLE.token.burst,
      },
    };
    // Access logs: one JSON line per request, with the client id the authorizer verified (never a token).
    const apiAccessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.RETAIN });
    stage.accessLogSettings = { destinationArn: apiAccessLogs.logGroupArn, format: JSON.stringify(API_ACCESS_LOG_FORMAT) };

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint, description: 'Base URL of the API' });
    new CfnOutput(this, 'TokenUrl', { value: `${api.apiEndpoint}/oauth/token`, description: 'OAuth 2.0 token endpoint' });
    new CfnOutput(this, 'JwksUrl', { value: `${api.apiEndpoint}/oauth/jwks`, description: 'Public keys of the access tokens' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'ImagesBucketName', { value: images.bucketName });
    new CfnOutput(this, 'ImageBaseUrl', { value: `https://${imageDistribution.distributionDomainName}` });
    new CfnOutput(this, 'SigningKeyArn', { value: signingKey.keyArn });
  }
}

/** How cdk-nag names a value in a finding id: the literal, or `<AWS::Region>` for an unresolved pseudo parameter. */
function nagValue(value: string, pseudoParameter: 'AWS::Region' | 'AWS::AccountId'): string {
  return Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
}

function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join('');
}
