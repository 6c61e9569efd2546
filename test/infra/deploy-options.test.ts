import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSigningKeyVersions } from '../../infra/signing-keys';
import { deploymentContext } from '../../infra/deployment-context';
import { API_ACCESS_LOG_FORMAT, GenericResourceServiceStack, type GenericResourceServiceStackProps } from '../../infra/stack';
import { CORS_POLICY, UPLOAD_CORS_POLICY, parseCorsOrigins } from '../../shared/http/cors';
import { cdkApp } from '../support/cdk-app';

/** The deploy-time context values of infra/app.ts, each as the stack turns it into resources. */
const build = (props: Partial<GenericResourceServiceStackProps> = {}) => {
  const app = cdkApp();
  const stack = new GenericResourceServiceStack(app, 'GenericResourceService-europe-west1-gcp', {
    region: 'europe-west1',
    cloudProvider: 'gcp',
    env: { account: '123456789012', region: 'eu-west-1' },
    ...props,
  });
  return { app, stack, template: Template.fromStack(stack) };
};

const ORIGINS = ['https://shop.example.com', 'http://localhost:3000'];
let plain: Template;
let configured: ReturnType<typeof build>;
beforeAll(() => {
  plain = build().template;
  configured = build({
    corsOrigins: ORIGINS,
    signingKeyVersions: ['2', '1'],
    alarmEmail: 'ops@example.com',
    customDomain: { domain: 'example.com', hostedZone: { id: 'Z123', name: 'example.com' } },
  });
});

const environmentOf = (template: Template, idPrefix: string) =>
  (Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(idPrefix))![1] as any).Properties.Environment.Variables;

describe('-c corsOrigins', () => {
  it('configures the API\'s preflight and headers, and the pending-uploads bucket\'s CORS for presigned PUTs', () => {
    configured.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ORIGINS,
        AllowMethods: [...CORS_POLICY.allowMethods],
        AllowHeaders: [...CORS_POLICY.allowHeaders],
        ExposeHeaders: [...CORS_POLICY.exposeHeaders],
        MaxAge: CORS_POLICY.maxAgeSeconds,
      },
    });
    // Browsers PUT presigned uploads to the bucket of pending uploads (never served), not to the images bucket.
    configured.template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 1 })] },
      CorsConfiguration: {
        CorsRules: [
          {
            AllowedOrigins: ORIGINS,
            AllowedMethods: ['PUT'],
            AllowedHeaders: [...UPLOAD_CORS_POLICY.allowHeaders],
            ExposedHeaders: [...UPLOAD_CORS_POLICY.exposeHeaders],
            MaxAge: UPLOAD_CORS_POLICY.maxAgeSeconds,
          },
        ],
      },
    });
  });

  it('has the $default route\'s function answer preflights for those origins (the route catches them before corsPreflight)', () => {
    expect(environmentOf(configured.template, 'RouteNotFound').CORS_ORIGINS).toBe(ORIGINS.join(','));
    expect(environmentOf(configured.template, 'GetResource').CORS_ORIGINS).toBeUndefined();
    expect(environmentOf(plain, 'RouteNotFound').CORS_ORIGINS).toBeUndefined();
  });

  it('allows no origin when not given', () => {
    plain.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.absent() });
    for (const bucket of Object.values(plain.findResources('AWS::S3::Bucket')) as any[]) expect(bucket.Properties.CorsConfiguration).toBeUndefined();
  });

  it('refuses what is not an origin instead of half-applying it', () => {
    expect(parseCorsOrigins(' https://a.example , http://localhost:5173 ')).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins('*')).toEqual(['*']);
    for (const wrong of ['https://a.example/', 'a.example', 'https://a.example/path', 'ftp://a.example']) expect(() => parseCorsOrigins(wrong)).toThrow(/not an origin/);
  });
});

describe('-c signingKeys (rotation without editing infra/)', () => {
  it('keeps version 1 under the id the stack always had, so an existing key is never replaced', () => {
    expect(Object.keys(plain.findResources('AWS::KMS::Key'))).toEqual([expect.stringMatching(/^TokenSigningKey[0-9A-F]{8}$/)]);
  });

  it('makes one retained key per version; the first signs, all are published and verify', () => {
    const keys = configured.template.findResources('AWS::KMS::Key');
    const ids = Object.keys(keys);
    const v1 = ids.find((id) => /^TokenSigningKey[0-9A-F]{8}$/.test(id))!;
    const v2 = ids.find((id) => id.startsWith('TokenSigningKeyV2'))!;
    expect(ids).toHaveLength(2);
    for (const key of Object.values(keys) as any[]) expect(key.DeletionPolicy).toBe('Retain');

    const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
    expect(environmentOf(configured.template, 'IssueToken').SIGNING_KEY_ARN).toEqual({ 'Fn::Join': ['', [arn(v2), ',', arn(v1)]] });

    const statements = (prefix: string) =>
      Object.entries(configured.template.findResources('AWS::IAM::Policy'))
        .filter(([id]) => id.startsWith(prefix))
        .flatMap(([, policy]) => (policy as any).Properties.PolicyDocument.Statement);
    const signs = statements('IssueTokenServiceRole').filter((statement: any) => [statement.Action].flat().includes('kms:Sign'));
    expect(signs.map((statement: any) => statement.Resource)).toEqual([arn(v2)]);
    const reads = statements('GetJwksServiceRole').filter((statement: any) => [statement.Action].flat().includes('kms:GetPublicKey'));
    // One statement or one per key (the CDK merges statements that differ only in their resources).
    expect(reads.flatMap((statement: any) => [statement.Resource].flat()).sort((a: any, b: any) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      [arn(v1), arn(v2)].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );
  });

  it('reads the context value, and refuses a list that cannot be right', () => {
    expect(parseSigningKeyVersions(undefined)).toEqual(['1']);
    expect(parseSigningKeyVersions('2, 1')).toEqual(['2', '1']);
    expect(() => build({ signingKeyVersions: ['1', '1'] })).toThrow(/twice/);
    expect(() => build({ signingKeyVersions: ['v2'] })).toThrow(/not a number/);
    expect(() => build({ signingKeyVersions: [] })).toThrow(/at least one/);
  });
});

describe('token issuer with a custom domain', () => {
  it('is the custom domain\'s URL, so tokens and discovery name the address clients use', () => {
    expect(environmentOf(configured.template, 'IssueToken').TOKEN_ISSUER).toBe('https://api.europe-west1.gcp.example.com');
    expect(environmentOf(configured.template, 'Authorizer').TOKEN_ISSUER).toBe('https://api.europe-west1.gcp.example.com');
    configured.template.hasOutput('AuthorizationServerMetadataUrl', { Value: 'https://api.europe-west1.gcp.example.com/.well-known/oauth-authorization-server' });
    configured.template.hasOutput('TokenUrl', { Value: 'https://api.europe-west1.gcp.example.com/oauth/token' });
    configured.template.hasOutput('JwksUrl', { Value: 'https://api.europe-west1.gcp.example.com/oauth/jwks' });
  });

  it('is the execute-api URL without one', () => {
    expect(environmentOf(plain, 'IssueToken').TOKEN_ISSUER).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Api/), 'ApiEndpoint'] });
  });

  it('leaves the verifiers reading the keys at the execute-api address, which resolves before DNS points at the domain', () => {
    for (const template of [configured.template, plain]) {
      for (const name of ['Authorizer', 'IntrospectToken']) {
        expect(environmentOf(template, name).JWKS_URL).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(/^Api/), 'ApiEndpoint'] }, '/oauth/jwks']] });
      }
    }
  });
});

describe('-c accessLog', () => {
  it('on by default: API Gateway logs every request as one JSON line to a log group kept 3 months (APIG1 met)', () => {
    plain.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ApiAccessLogs'), 'Arn'] }, Format: JSON.stringify(API_ACCESS_LOG_FORMAT) },
    });
    plain.hasResource('AWS::Logs::LogGroup', { DeletionPolicy: 'Retain', Properties: { RetentionInDays: 90 } });
  });

  it('the line tells each refusal apart, per client: status, route, client id or source IP, request id, the gateway\'s error; never a header or a token', () => {
    expect(API_ACCESS_LOG_FORMAT).toMatchObject({
      s: '$context.status',
      r: '$context.routeKey',
      c: '$context.authorizer.clientId',
      ip: '$context.identity.sourceIp',
      id: '$context.requestId',
      e: '$context.error.message',
    });
    expect(JSON.stringify(API_ACCESS_LOG_FORMAT)).not.toMatch(/header|authorization/i);
  });

  it('false: no access log, no log group for it, APIG1 acknowledged', () => {
    const off = build({ accessLog: false }).template;
    off.hasResourceProperties('AWS::ApiGatewayV2::Stage', { AccessLogSettings: Match.absent() });
    expect(Object.keys(off.findResources('AWS::Logs::LogGroup')).filter((id) => id.startsWith('ApiAccessLogs'))).toEqual([]);
  });

  it('the cost model prices what the stack deploys by default (bench/cost.ts), the other choice beside it', async () => {
    const { ASSUMPTIONS } = await import('../../bench/cost');
    expect(ASSUMPTIONS.accessLog).toBe(Object.values(plain.findResources('AWS::ApiGatewayV2::Stage')).some((stage: any) => stage.Properties.AccessLogSettings));
  });

  it('is read from the context as off only when it says false', () => {
    const accessLog = (value: unknown) => deploymentContext((name) => ({ region: 'r', cloudProvider: 'c', accessLog: value })[name]).accessLog;
    expect([accessLog('false'), accessLog(' false '), accessLog(false)]).toEqual([false, false, false]);
    expect([accessLog(undefined), accessLog('true'), accessLog(true)]).toEqual([true, true, true]);
  });
});

describe('cdk-nag with every option on', () => {
  it('finds no unacknowledged error or warning', () => {
    const report = new AwsSolutionsChecks(configured.app).validateScope(configured.stack);
    expect(report.violations.map((violation) => `${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
