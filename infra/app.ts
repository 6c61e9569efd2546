import { randomBytes } from 'node:crypto';
import { App, Stack } from 'aws-cdk-lib';
import { TokenRateLimitAcl } from './constructs/token-rate-limit';
import { GenericResourceServiceStack } from './stack';

/**
 * `cdk synth|deploy -c region=<region> -c cloudProvider=<cloudProvider>`: one stack per pairing,
 * named after it. The AWS account and region come from the CDK's usual environment.
 * Optional: `-c domain=<domain>` with `-c hostedZoneId=<id> [-c hostedZoneName=<zone>]` (or
 * `-c certificateArn=<arn>`) serves the API at `api.<region>.<cloudProvider>.<domain>`.
 * Optional: `-c waf=true` puts the API behind CloudFront with an AWS WAF per-source rate limit on
 * `/oauth/*` (its web ACL is a second stack in us-east-1; cost and limits in docs/security.md);
 * `-c edgeSecret=<random>` keeps the distribution's secret stable across deployments.
 */
const app = new App();
const region = app.node.tryGetContext('region') as string | undefined;
const cloudProvider = app.node.tryGetContext('cloudProvider') as string | undefined;
if (!region || !cloudProvider) {
  throw new Error('Name the deployment: cdk deploy -c region=<region> -c cloudProvider=<cloudProvider>');
}

const context = (name: string) => app.node.tryGetContext(name) as string | undefined;
const domain = context('domain');
const hostedZoneId = context('hostedZoneId');

const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
const waf = context('waf') === 'true';
// A CLOUDFRONT-scoped web ACL can only be created in us-east-1: its own stack, referenced across regions.
const acl = waf
  ? new TokenRateLimitAcl(
      new Stack(app, `${stackName(region, cloudProvider)}-TokenRateLimit`, { env: { account: env.account, region: 'us-east-1' }, crossRegionReferences: true }),
      'TokenRateLimit',
    )
  : undefined;

export const stack = new GenericResourceServiceStack(app, stackName(region, cloudProvider), {
  region,
  cloudProvider,
  customDomain: domain
    ? {
        domain,
        hostedZone: hostedZoneId ? { id: hostedZoneId, name: context('hostedZoneName') ?? domain } : undefined,
        certificateArn: context('certificateArn'),
      }
    : undefined,
  tokenRateLimit: acl ? { webAclArn: acl.webAclArn, edgeSecret: context('edgeSecret') ?? randomBytes(24).toString('base64url') } : undefined,
  crossRegionReferences: waf,
  env,
});

export function stackName(region: string, cloudProvider: string): string {
  return `GenericResourceService-${region}-${cloudProvider}`.replace(/[^A-Za-z0-9-]/g, '-');
}
