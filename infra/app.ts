import { App, Stack } from 'aws-cdk-lib';
import { parseCorsOrigins } from '../shared/http/cors';
import { TokenRateLimitAcl } from './constructs/token-rate-limit';
import { deploymentContext, MissingPairingError, type DeploymentContext } from './deployment-context';
import { parseSigningKeyVersions } from './signing-keys';
import { GenericResourceServiceStack } from './stack';

/**
 * `cdk synth|deploy -c region=<region> -c cloudProvider=<cloudProvider>`: one stack per pairing,
 * named after it. The AWS account and region come from the CDK's usual environment.
 * Optional: `-c domain=<domain>` with `-c hostedZoneId=<id> [-c hostedZoneName=<zone>]` (or
 * `-c certificateArn=<arn>`) serves the API at `api.<region>.<cloudProvider>.<domain>`;
 * `-c corsOrigins=<origin>[,<origin>…]` lets those browser origins call the API and upload images;
 * `-c signingKeys=<version>[,<version>…]` names the token signing keys, the signing one first (rotation);
 * `-c alarmEmail=<address>` sends the alarms there; `-c concurrencyAlarmThreshold=<n>` (default 800);
 * `-c waf=true` puts the API behind CloudFront with an AWS WAF per-source rate limit on `/oauth/*`
 * (its web ACL is a second stack in us-east-1; cost and limits in docs/security.md), with
 * `-c edgeSecret=<random>`, the distribution's secret, the same on every deploy (required);
 * `-c lastModifiedIndex=false` removes the index that answers sorts and ranges on lastModifiedAt
 * (it costs 2 index write units per update); `-c accessLog=false` turns off API Gateway's
 * access log (one line per request, on by default: docs/performance.md);
 * `-c searchMinCapacity=0.5` keeps the search cluster awake (default 0: it pauses when idle) and
 * `-c searchMaxCapacity=<ACU>` caps it (default 4), in Aurora capacity units; `-c searchConcurrency=<n>`
 * sets how many search instances may run at once (default: the connection budget's, at most 200).
 */
const app = new App();
let deployment: DeploymentContext;
try {
  deployment = deploymentContext((name) => app.node.tryGetContext(name));
} catch (error) {
  if (!(error instanceof MissingPairingError)) throw error;
  // A usage mistake: say what to type, without a stack trace.
  console.error(error.message);
  process.exit(2);
}

const context = (name: string) => app.node.tryGetContext(name) as string | undefined;
const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
const name = stackName(deployment.region, deployment.cloudProvider);

const waf = context('waf') === 'true';
const edgeSecret = context('edgeSecret');
if (waf && !(edgeSecret && edgeSecret.length >= 16)) {
  // One drawn at each synth would redeploy the token functions and the edge's function on every
  // deploy, and between the two updates the brute-force brake would count the edge's addresses.
  console.error('-c waf=true needs -c edgeSecret=<at least 16 random characters>, the same on every deploy (docs/security.md).');
  process.exit(2);
}
// A CLOUDFRONT-scoped web ACL can only be created in us-east-1: its own stack, referenced across regions.
const acl = waf
  ? new TokenRateLimitAcl(new Stack(app, `${name}-TokenRateLimit`, { env: { account: env.account, region: 'us-east-1' }, crossRegionReferences: true }), 'TokenRateLimit')
  : undefined;

export const stack = new GenericResourceServiceStack(app, name, {
  ...deployment,
  corsOrigins: parseCorsOrigins(context('corsOrigins')),
  signingKeyVersions: parseSigningKeyVersions(context('signingKeys')),
  alarmEmail: context('alarmEmail'),
  concurrencyAlarmThreshold: positiveInteger('concurrencyAlarmThreshold', context('concurrencyAlarmThreshold')),
  tokenRateLimit: acl && edgeSecret ? { webAclArn: acl.webAclArn, edgeSecret } : undefined,
  searchMinCapacity: capacityUnits('searchMinCapacity', context('searchMinCapacity')),
  searchMaxCapacity: capacityUnits('searchMaxCapacity', context('searchMaxCapacity')),
  searchConcurrency: positiveInteger('searchConcurrency', context('searchConcurrency')),
  crossRegionReferences: waf,
  env,
});

export function stackName(region: string, cloudProvider: string): string {
  return `GenericResourceService-${region}-${cloudProvider}`.replace(/[^A-Za-z0-9-]/g, '-');
}

/** Aurora Serverless v2 capacity: whole or half units. */
function capacityUnits(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.[05])?$/.test(String(value))) throw new Error(`-c ${name}=${value} is not a number of Aurora capacity units (0, 0.5, 1, 1.5, …).`);
  return Number(value);
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(String(value))) throw new Error(`-c ${name}=${value} is not a positive whole number.`);
  return Number(value);
}
