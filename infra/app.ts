import { App } from 'aws-cdk-lib';
import { GenericResourceServiceStack } from './stack';

/**
 * `cdk synth|deploy -c region=<region> -c cloudProvider=<cloudProvider>`: one stack per pairing,
 * named after it. The AWS account and region come from the CDK's usual environment.
 */
const app = new App();
const region = app.node.tryGetContext('region') as string | undefined;
const cloudProvider = app.node.tryGetContext('cloudProvider') as string | undefined;
if (!region || !cloudProvider) {
  throw new Error('Name the deployment: cdk deploy -c region=<region> -c cloudProvider=<cloudProvider>');
}

export const stack = new GenericResourceServiceStack(app, stackName(region, cloudProvider), {
  region,
  cloudProvider,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

export function stackName(region: string, cloudProvider: string): string {
  return `GenericResourceService-${region}-${cloudProvider}`.replace(/[^A-Za-z0-9-]/g, '-');
}
