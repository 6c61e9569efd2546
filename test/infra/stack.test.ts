import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GenericResourceServiceStack, THROTTLE } from '../../infra/stack';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../shared/auth/authorizer-settings';
import { endpoints, functions as declaredFunctions } from '../../functions/endpoints';
import { routeKey } from '../../shared/http/declaration';
import { TABLE_TTL_ATTRIBUTE } from '../../shared/store/dynamodb/table-schema';
import { cdkApp } from '../support/cdk-app';

const routes = endpoints.flatMap((endpoint) => endpoint.routes);

let template: Template;

beforeAll(() => {
  // Skip esbuild bundling: these tests check the template, not the bundles.
  const app = cdkApp();
  const stack = new GenericResourceServiceStack(app, 'GenericResourceService-europe-west1-gcp', {
    region: 'europe-west1',
    cloudProvider: 'gcp',
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  template = Template.fromStack(stack);
});

/** The IAM actions granted to the role of the function that serves `handler`. */
function actionsOf(handler: string): string[] {
  const logicalId = handler
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.entries(policies)
    .filter(([id]) => id.startsWith(`${logicalId}ServiceRoleDefaultPolicy`))
    .flatMap(([, policy]) => (policy as any).Properties.PolicyDocument.Statement)
    .flatMap((statement: any) => [statement.Action].flat());
}

describe('the API routes come from the endpoint declarations', () => {
  it('has exactly one API Gateway route per declared route, plus $default', () => {
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route: any) => route.Properties.RouteKey);
    expect(routeKeys.sort()).toEqual([...routes.map(routeKey), '$default'].sort());
  });

  it('puts the authorizer on every project route and on no public one', () => {
    const byKey = Object.fromEntries(
      Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((route: any) => [route.Properties.RouteKey, route.Properties]),
    );
    for (const route of routes) {
      const properties = byKey[routeKey(route)];
      if (route.access.kind === 'project') expect(properties.AuthorizationType).toBe('CUSTOM');
      else expect(properties.AuthorizationType ?? 'NONE').toBe('NONE');
    }
  });

  it('makes one Node.js 22 arm64 function per declared function (endpoints, fallback, authorizer)', () => {
    const functions = template.findResources('AWS::Lambda::Function', {
      Properties: { Runtime: 'nodejs22.x', Architectures: ['arm64'] },
    });
    expect(Object.keys(functions)).toHaveLength(declaredFunctions.length);
  });

  it('grants every function exactly the IAM actions its declared permissions map to, and none without a permission', () => {
    for (const declaration of declaredFunctions) {
      const actions = actionsOf(declaration.name);
      if (declaration.permissions.length === 0) expect(actions, declaration.name).toEqual([]);
      if (!declaration.permissions.includes('projects:write')) {
        // The consumer writes its own partitions only (parked notifications, dead letters: below); every other function none.
        const allowed = declaration.permissions.includes('subscriptions:deliver') ? ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:PutItem'] : [];
        expect(actions.filter((action) => /^dynamodb:(Put|Delete|BatchWrite)/.test(action)).sort(), declaration.name).toEqual(allowed);
      }
      if (!declaration.permissions.includes('signingKey:sign')) expect(actions, declaration.name).not.toContain('kms:Sign');
    }
  });
});

describe('authorizer', () => {
  it('is a Lambda authorizer with simple responses, cached per Authorization header', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_TTL_SECONDS,
    });
  });
});

describe('table', () => {
  it('is on-demand with point-in-time recovery, deletion protection, and retained', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    });
  });
});

describe('pending image uploads and Idempotency-Key records', () => {
  it('expire by the table\'s TTL attribute expiresAt', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } });
    expect(TABLE_TTL_ATTRIBUTE).toBe('expiresAt'); // Powertools' expiry attribute (idempotency-records.ts)
  });

  it('records are written only by the functions that take Idempotency-Keys, in project partitions, where they write anyway', () => {
    const keyed = endpoints.filter((endpoint) => endpoint.idempotencyKey).map((endpoint) => endpoint.name);
    expect(keyed.length).toBeGreaterThan(0);
    for (const handler of keyed) {
      expect(tableAccessOf(handler), handler).toContainEqual({ actions: ['dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], leadingKeys: ['PROJECT#*'] });
    }
  });
});

describe('token signing key', () => {
  it('is an RSA-2048 KMS key for signing, retained', () => {
    template.hasResource('AWS::KMS::Key', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({ KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' }),
    });
  });
});

describe('least-privilege grants', () => {
  it('lets readers read and nothing more', () => {
    const actions = actionsOf('get-resource');
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions.some((action) => action.startsWith('kms:'))).toBe(false);
  });

  it('lets writers write', () => {
    for (const handler of ['create-resource', 'update-resource', 'delete-resource', 'put-resource', 'overwrite-resource']) {
      expect(actionsOf(handler)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']));
    }
  });

  it('lets only the token service sign; JWKS only reads public keys; the authorizer and introspection read clients and no key (they verify with the JWKS endpoint)', () => {
    expect(actionsOf('issue-token')).toContain('kms:Sign');
    const authorizer = actionsOf('authorizer');
    expect(authorizer).toContain('dynamodb:GetItem');
    expect(authorizer.some((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action) || action.startsWith('kms:'))).toBe(false);
    expect(actionsOf('introspect-token').some((action) => action.startsWith('kms:'))).toBe(false);
    expect(actionsOf('get-jwks')).toEqual(['kms:GetPublicKey']);
    expect(actionsOf('route-not-found')).toEqual([]);
  });
});

/** The DynamoDB statements of a function's role: actions and the partitions (`dynamodb:LeadingKeys`) they are limited to. */
function tableAccessOf(handler: string): { actions: string[]; leadingKeys: unknown }[] {
  const logicalId = handler
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
  return Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith(`${logicalId}ServiceRoleDefaultPolicy`))
    .flatMap(([, policy]) => (policy as any).Properties.PolicyDocument.Statement as any[])
    .filter((statement) => [statement.Action].flat().some((action: string) => action.startsWith('dynamodb:')))
    // The consumer's reads of the table's stream (test/infra/subscriptions.test.ts).
    .filter((statement) => !JSON.stringify(statement.Resource).includes('StreamArn'))
    // In any order: the CDK sorts the actions of each statement (@aws-cdk/aws-iam:minimizePolicies).
    .map((statement) => ({ actions: [statement.Action].flat().sort(), leadingKeys: statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] }));
}

describe('least privilege by key (dynamodb:LeadingKeys), per function', () => {
  const READ = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
  const WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];
  const PROJECTS = ['PROJECT#*'];
  const CLIENTS = ['CLIENT#*'];
  const expected: Record<string, { actions: string[]; leadingKeys: string[] }[]> = {
    authorizer: [{ actions: ['dynamodb:GetItem'], leadingKeys: CLIENTS }],
    'issue-token': [{ actions: ['dynamodb:GetItem'], leadingKeys: CLIENTS }, { actions: ['dynamodb:UpdateItem'], leadingKeys: CLIENTS }],
    'introspect-token': [{ actions: ['dynamodb:GetItem'], leadingKeys: CLIENTS }, { actions: ['dynamodb:UpdateItem'], leadingKeys: CLIENTS }],
    'get-jwks': [],
    'get-authorization-server-metadata': [],
    'route-not-found': [],
    'get-openapi': [],
    'get-api-docs': [],
    'get-resource': [{ actions: READ, leadingKeys: PROJECTS }],
    'query-resources': [{ actions: READ, leadingKeys: PROJECTS }],
    'check-resources-exist': [{ actions: READ, leadingKeys: PROJECTS }],
    'query-sorted-resources': [{ actions: READ, leadingKeys: PROJECTS }],
    'search-resources': [{ actions: READ, leadingKeys: PROJECTS }],
    'index-changes': [{ actions: READ, leadingKeys: PROJECTS }],
    'call-extension-action': [{ actions: READ, leadingKeys: PROJECTS }],
    'put-json-value': [{ actions: WRITE, leadingKeys: PROJECTS }],
    'start-image-upload': [{ actions: WRITE, leadingKeys: PROJECTS }],
    'get-subscriptions': [{ actions: READ, leadingKeys: PROJECTS }],
    'deliver-changes': [
      { actions: READ, leadingKeys: PROJECTS },
      { actions: ['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem'], leadingKeys: ['PARKED'] },
      { actions: ['dynamodb:PutItem'], leadingKeys: ['DEAD#*'] },
    ],
    ...Object.fromEntries(
      ['create-subscription', 'delete-subscription', 'create-resource', 'overwrite-resource', 'put-resource', 'update-resource', 'delete-resource', 'post-complex-path', 'upload-image', 'complete-image-upload'].map(
        (handler) => [handler, [{ actions: READ, leadingKeys: PROJECTS }, { actions: WRITE, leadingKeys: PROJECTS }]],
      ),
    ),
  };

  it('lets the query, HEAD and search functions only read: no write of any kind', () => {
    for (const name of ['query-resources', 'query-sorted-resources', 'check-resources-exist', 'search-resources']) {
      expect(actionsOf(name).filter((action) => /^dynamodb:(Put|Update|Delete|BatchWrite|TransactWrite)/.test(action)), name).toEqual([]);
      expect(expected[name]!.flatMap((grant) => grant.actions).every((action) => READ.includes(action)), name).toBe(true);
    }
  });

  it('covers every function of the stack', () => {
    const handlers = new Set(declaredFunctions.map((declaration) => declaration.name));
    expect(Object.keys(expected).sort()).toEqual([...handlers].sort());
  });

  it.each(Object.entries(expected))('%s reaches only its partitions, with exactly its actions', (handler, statements) => {
    expect(tableAccessOf(handler)).toEqual(statements.map((statement) => ({ ...statement, actions: [...statement.actions].sort() })));
  });

  it('grants Scan to no function (a Scan has no leading key, so the condition could not hold it)', () => {
    const actions = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy: any) =>
      (policy.Properties.PolicyDocument.Statement as any[]).flatMap((statement) => [statement.Action].flat()),
    );
    expect(actions.filter((action: string) => /^dynamodb:(Scan|\*)/.test(action))).toEqual([]);
  });
});

describe('throttling', () => {
  it('limits the stage and gives the token route a stricter limit', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: THROTTLE.api.rate, ThrottlingBurstLimit: THROTTLE.api.burst },
      RouteSettings: { 'POST /oauth/token': { ThrottlingRateLimit: THROTTLE.token.rate, ThrottlingBurstLimit: THROTTLE.token.burst } },
    });
  });
});

describe('images bucket', () => {
  it('is private, encrypted, versioned, TLS-only and retained', () => {
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        VersioningConfiguration: { Status: 'Enabled' },
      }),
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
  });

  it('is served through CloudFront with origin access control', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    // CloudFront names are global to the account: each carries the stack's AWS region.
    const [oac] = Object.values(template.findResources('AWS::CloudFront::OriginAccessControl')) as any[];
    expect(oac.Properties.OriginAccessControlConfig.Name).toContain('-eu-west-1-');
    const [headers] = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy')) as any[];
    expect(headers.Properties.ResponseHeadersPolicyConfig.Name).toContain('-eu-west-1-');
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }) }),
    });
  });

  it('serves images with X-Content-Type-Options: nosniff (a response headers policy on the distribution)', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({ SecurityHeadersConfig: { ContentTypeOptions: { Override: true } } }),
    });
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ DefaultCacheBehavior: Match.objectLike({ ResponseHeadersPolicyId: Match.anyValue() }) }),
    });
  });

  it('expires replaced and deleted image versions after 30 days', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: { Rules: [Match.objectLike({ NoncurrentVersionExpiration: { NoncurrentDays: 30 }, ExpiredObjectDeleteMarker: true, Status: 'Enabled' })] },
    });
  });

  it('keeps pending uploads in a bucket of their own that no distribution serves, expiring them after a day', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    const [uploadsId, uploads] = Object.entries(buckets).find(([id]) => id.startsWith('ImageUploads'))! as [string, any];
    expect(uploads.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' })] },
    });
    // Retained: a pending upload at `cdk destroy` would otherwise fail the deletion (a bucket with objects).
    expect(uploads.DeletionPolicy).toBe('Retain');
    const distributions = JSON.stringify(template.findResources('AWS::CloudFront::Distribution'));
    expect(distributions).not.toContain(uploadsId);
    const uploadsPolicies = Object.values(template.findResources('AWS::S3::BucketPolicy')).filter((policy: any) => policy.Properties.Bucket.Ref === uploadsId);
    expect(uploadsPolicies).toHaveLength(1);
    expect(JSON.stringify(uploadsPolicies)).not.toContain('cloudfront');
  });

  it('lets only the image functions write images', () => {
    expect(actionsOf('upload-image')).toEqual(expect.arrayContaining(['s3:PutObject', 's3:DeleteObject']));
    // Presigning: S3 checks the signer's s3:PutObject when the URL is used. Completing reads and copies, and deletes a refused image.
    expect(actionsOf('start-image-upload').filter((action) => action.startsWith('s3:'))).toEqual(['s3:PutObject']);
    expect(actionsOf('complete-image-upload')).toEqual(expect.arrayContaining(['s3:GetObject', 's3:ListBucket', 's3:DeleteObject', 's3:PutObject']));
    for (const handler of ['get-resource', 'create-resource', 'issue-token', 'authorizer']) {
      expect(actionsOf(handler).some((action) => action.startsWith('s3:'))).toBe(false);
    }
  });
});

describe('durability', () => {
  it('keeps every log group for a bounded time: functions a month, the API\'s access log 3 months', () => {
    const logGroups = Object.entries(template.findResources('AWS::Logs::LogGroup')).map(([id, group]: [string, any]) => [id.startsWith('ApiAccessLogs'), group.Properties.RetentionInDays]);
    // One each, but the index migrations' provider framework, whose three functions share one, and
    // the deploy-time function that empties the network's default security group (CDK's own, which logs nothing).
    const functions = Object.keys(template.findResources('AWS::Lambda::Function')).length - 3;
    expect(logGroups.filter(([access]) => !access).map(([, days]) => days)).toEqual(Array(functions).fill(30));
    expect(logGroups.filter(([access]) => access).map(([, days]) => days)).toEqual([90]);
  });

  it('encrypts the table with KMS (AWS managed key) and keeps the images bucket versioned behind a public-access block', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { SSESpecification: Match.objectLike({ SSEEnabled: true, SSEType: 'KMS' }) });
    template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: Match.objectLike({ BlockPublicPolicy: true }),
    });
  });
});
