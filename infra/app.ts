import { App } from 'aws-cdk-lib';
import { deploymentContext, MissingPairingError, type DeploymentContext } from './deployment-context';
import { parseCorsOrigins } from '../shared/http/cors';
import { parseSigningKeyVersions } from './signing-keys';
import { GenericResourceServiceStack } from './stack';

/**
 * `cdk synth|deploy -c region=<region> -c cloudProvider=<cloudProvider>`: one stack per pairing,
 * named after it. The AWS account and region come from the CDK's usual environment.
 * Optional: `-c domain=<domain>` with `-c hostedZoneId=<id> [-c hostedZoneName=<zone>]` (or
 * `-c certificateArn=<arn>`) serves the API at `api.<region>.<cloudProvider>.<domain>`;
 * `-c corsOrigins=<origin>[,<origin>…]` lets those browser origins call the API and upload images;
 * `-c signingKeys=<version>[,<version>…]` names the token signing keys, the signing one first (rotation);
 * `-c alarmEmail=<address>` sends the alarms there; `-c concurrencyAlarmThreshold=<n>` (default 800).
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

export const stack = new GenericResourceServiceStack(app, stackName(deployment.region, deployment.cloudProvider), {
  ...deployment,
  corsOrigins: parseCorsOrigins(context('corsOrigins')),
  signingKeyVersions: parseSigningKeyVersions(context('signingKeys')),
  alarmEmail: context('alarmEmail'),
  concurrencyAlarmThreshold: positiveInteger('concurrencyAlarmThreshold', context('concurrencyAlarmThreshold')),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

export function stackName(region: string, cloudProvider: string): string {
  return `GenericResourceService-${region}-${cloudProvider}`.replace(/[^A-Za-z0-9-]/g, '-');
}

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(String(value))) throw new Error(`-c ${name}=${value} is not a positive whole number.`);
  return Number(value);
}
