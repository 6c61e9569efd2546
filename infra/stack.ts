import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnStage, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Distribution, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../shared/auth/authorizer-settings';
import { fallbackRoute, routeKey, routes, type Route } from '../shared/http/routes';
import { TABLE_PARTITION_KEY, TABLE_SORT_KEY } from '../shared/store/dynamodb/table-schema';
import { EndpointFunction } from './constructs/endpoint-function';
import { functionPermissions, type Permission } from './function-permissions';

export interface GenericResourceServiceStackProps extends StackProps {
  region: string;
  cloudProvider: string;
}

/** Requests per second across the API, and the stricter limit of the token route. */
export const THROTTLE = { api: { rate: 1000, burst: 2000 }, token: { rate: 20, burst: 40 } };

/**
 * One deployment of the service for a region/cloudProvider pairing: an HTTP API whose routes are
 * the route table's, one function per route, the authorizer, the table, and the token signing key.
 */
export class GenericResourceServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: GenericResourceServiceStackProps) {
    super(scope, id, props);

    const table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: TABLE_SORT_KEY, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      encryption: TableEncryptionV2.awsManagedKey(),
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Tokens are signed inside KMS; the private key never leaves it.
    const signingKey = new Key(this, 'TokenSigningKey', {
      keySpec: KeySpec.RSA_2048,
      keyUsage: KeyUsage.SIGN_VERIFY,
      description: `Signs access tokens of the Generic Resource Service (${props.region}/${props.cloudProvider})`,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Images: a private, encrypted, versioned bucket, served only through CloudFront (origin access control).
    const images = new Bucket(this, 'Images', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const imageDistribution = new Distribution(this, 'ImageDistribution', {
      comment: `Images of the Generic Resource Service (${props.region}/${props.cloudProvider})`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(images),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      },
    });

    const api = new HttpApi(this, 'Api', {
      apiName: `generic-resource-service-${props.region}-${props.cloudProvider}`,
      description: 'Generic Resource Service (commercetools family), project-scoped HTTP API',
    });

    const environment = {
      TABLE_NAME: table.tableName,
      TOKEN_ISSUER: api.apiEndpoint,
      TOKEN_AUDIENCE: 'generic-resource-service',
      SIGNING_KEY_ARN: signingKey.keyArn,
      IMAGES_BUCKET: images.bucketName,
      IMAGE_BASE_URL: `https://${imageDistribution.distributionDomainName}`,
    };

    const grant = (fn: IFunction, permissions: readonly Permission[]) => {
      for (const permission of permissions) {
        if (permission === 'table:read') table.grantReadData(fn);
        if (permission === 'table:write') table.grantWriteData(fn);
        if (permission === 'signingKey:sign') signingKey.grant(fn, 'kms:Sign');
        if (permission === 'signingKey:publicKey') signingKey.grant(fn, 'kms:GetPublicKey');
        if (permission === 'images:write') {
          images.grantPut(fn);
          images.grantDelete(fn);
        }
        if (permission === 'extensions:invoke') {
          fn.addToRolePolicy(
            new PolicyStatement({
              actions: ['lambda:InvokeFunction'],
              resources: [this.formatArn({ service: 'lambda', resource: 'function', resourceName: 'gr-extension-*', arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
            }),
          );
        }
      }
    };
    const functionFor = (handler: keyof typeof functionPermissions) => {
      const fn = new EndpointFunction(this, pascalCase(handler), { handler, environment });
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
      new HttpRoute(this, `Route${pascalCase(route.method)}${pascalCase(route.path)}`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method as keyof typeof HttpMethod]),
        integration: new HttpLambdaIntegration(`${pascalCase(handler)}Integration`, fn),
        authorizer: route.access.kind === 'project' ? authorizer : undefined,
      });
    }
    new HttpRoute(this, 'RouteDefault', {
      httpApi: api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('NotFoundIntegration', functionFor(fallbackRoute.handler as 'route-not-found')),
    });

    const stage = api.defaultStage!.node.defaultChild as CfnStage;
    stage.defaultRouteSettings = { throttlingRateLimit: THROTTLE.api.rate, throttlingBurstLimit: THROTTLE.api.burst };
    // routeSettings is a raw JSON map in CloudFormation's own (PascalCase) names.
    stage.routeSettings = {
      [routeKey({ method: 'POST', path: '/oauth/token' })]: {
        ThrottlingRateLimit: THROTTLE.token.rate,
        ThrottlingBurstLimit: THROTTLE.token.burst,
      },
    };

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint, description: 'Base URL of the API' });
    new CfnOutput(this, 'TokenUrl', { value: `${api.apiEndpoint}/oauth/token`, description: 'OAuth 2.0 token endpoint' });
    new CfnOutput(this, 'JwksUrl', { value: `${api.apiEndpoint}/oauth/jwks`, description: 'Public keys of the access tokens' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'ImagesBucketName', { value: images.bucketName });
    new CfnOutput(this, 'ImageBaseUrl', { value: `https://${imageDistribution.distributionDomainName}` });
    new CfnOutput(this, 'SigningKeyArn', { value: signingKey.keyArn });
  }
}

function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join('');
}
