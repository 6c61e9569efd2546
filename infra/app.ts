import { App } from 'aws-cdk-lib';
import { GenericResourceServiceStack } from './stack';

/**
 * `cdk synth|deploy -c region=<region> -c cloudProvider=<cloudProvider>`: one stack per pairing,
 * named after it. The AWS account and region come from the CDK's usual environment.
 * Optional: `-c domain=<domain>` with `-c hostedZoneId=<id> [-c hostedZoneName=<zone>]` (or
 * `-c certificateArn=<arn>`) serves the API at `api.<region>.<cloudProvider>.<domain>`.
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
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

export function stackName(region: string, cloudProvider: string): string {
  return `GenericResourceService-${region}-${cloudProvider}`.replace(/[^A-Za-z0-9-]/g, '-');
}
