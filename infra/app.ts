import { App } from 'aws-cdk-lib';
import { deploymentContext, MissingPairingError, type DeploymentContext } from './deployment-context';
import { GenericResourceServiceStack } from './stack';

/**
 * `cdk synth|deploy -c region=<region> -c cloudProvider=<cloudProvider>`: one stack per pairing,
 * named after it. The AWS account and region come from the CDK's usual environment.
 * Optional: `-c domain=<domain>` with `-c hostedZoneId=<id> [-c hostedZoneName=<zone>]` (or
 * `-c certificateArn=<arn>`) serves the API at `api.<region>.<cloudProvider>.<domain>`.
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

export const stack = new GenericResourceServiceStack(app, stackName(deployment.region, deployment.cloudProvider), {
  ...deployment,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

export function stackName(region: string, cloudProvider: string): string {
  return `GenericResourceService-${region}-${cloudProvider}`.replace(/[^A-Za-z0-9-]/g, '-');
}
