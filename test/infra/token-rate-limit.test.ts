import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_RATE_LIMIT, TokenRateLimitAcl } from '../../infra/constructs/token-rate-limit';
import { GenericResourceServiceStack } from '../../infra/stack';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/auth/caller-source';
import { cdkApp } from '../support/cdk-app';

/** `-c waf=true`: the web ACL in us-east-1, the API behind CloudFront carrying it (as infra/app.ts wires them). */
let acl: Template;
let service: Template;
let app: App;
let main: GenericResourceServiceStack;

beforeAll(() => {
  app = cdkApp();
  const aclStack = new Stack(app, 'Acl', { env: { account: '123456789012', region: 'us-east-1' }, crossRegionReferences: true });
  const webAcl = new TokenRateLimitAcl(aclStack, 'TokenRateLimit');
  main = new GenericResourceServiceStack(app, 'GenericResourceService-europe-west1-gcp', {
    region: 'europe-west1',
    cloudProvider: 'gcp',
    env: { account: '123456789012', region: 'eu-west-1' },
    crossRegionReferences: true,
    tokenRateLimit: { webAclArn: webAcl.webAclArn, edgeSecret: 'test-edge-secret' },
  });
  acl = Template.fromStack(aclStack);
  service = Template.fromStack(main);
}, 120_000);

describe('token rate limit (-c waf=true)', () => {
  it('is a CLOUDFRONT web ACL with a rate-based rule per source IP on /oauth/*, answering 429 as JSON', () => {
    acl.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'TooManyRequests' } } },
          Statement: {
            RateBasedStatement: Match.objectLike({
              Limit: TOKEN_RATE_LIMIT.requests,
              EvaluationWindowSec: TOKEN_RATE_LIMIT.windowSeconds,
              AggregateKeyType: 'IP',
              ScopeDownStatement: { ByteMatchStatement: Match.objectLike({ PositionalConstraint: 'STARTS_WITH', SearchString: '/oauth/' }) },
            }),
          },
        }),
      ],
    });
  });

  it('puts the API behind a CloudFront distribution with that web ACL, nothing cached, the viewer address passed on', () => {
    service.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        WebACLId: Match.anyValue(),
        DefaultCacheBehavior: Match.objectLike({ AllowedMethods: Match.arrayWith(['POST']), FunctionAssociations: [Match.objectLike({ EventType: 'viewer-request' })] }),
      }),
    });
    const [code] = Object.values(service.findResources('AWS::CloudFront::Function')).map((fn: any) => fn.Properties.FunctionCode as string);
    expect(code).toContain(`headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip }`);
    expect(code).toContain(`headers['${EDGE_SECRET_HEADER}'] = { value: "test-edge-secret" }`);
  });

  it('gives the edge secret to the client-authenticating functions only', () => {
    const withSecret = Object.entries(service.findResources('AWS::Lambda::Function'))
      .filter(([, fn]: [string, any]) => fn.Properties.Environment?.Variables?.EDGE_SECRET === 'test-edge-secret')
      .map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));
    expect(withSecret.sort()).toEqual(['IntrospectToken', 'IssueToken']);
  });

  it('leaves no cdk-nag finding unacknowledged', () => {
    const report = new AwsSolutionsChecks(app).validateScope(main);
    expect(report.violations.map((violation) => `${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });

  it('refuses to combine with a custom domain (the domain would bypass the web ACL)', () => {
    const other = cdkApp();
    expect(
      () =>
        new GenericResourceServiceStack(other, 'X', {
          region: 'r',
          cloudProvider: 'c',
          env: { account: '123456789012', region: 'eu-west-1' },
          customDomain: { domain: 'example.com', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/x' },
          tokenRateLimit: { webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/x/y', edgeSecret: 's' },
        }),
    ).toThrow(/custom domain/);
  });
});
