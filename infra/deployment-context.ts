import type { GenericResourceServiceStack } from './stack';

type CustomDomain = ConstructorParameters<typeof GenericResourceServiceStack>[2]['customDomain'];

/** Which pairing `cdk synth|deploy` builds, and where it serves the API, as told with `-c name=value`. */
export interface DeploymentContext {
  region: string;
  cloudProvider: string;
  customDomain: CustomDomain;
  /** The table's lastModifiedAt index; `-c lastModifiedIndex=false` removes it (it costs 2 index write units per update). */
  lastModifiedIndex: boolean;
  /** API Gateway's access log, one line per request: on unless `-c accessLog=false`. */
  accessLog: boolean;
}

/** The one line `npm run synth|deploy` prints when the pairing is not named: what to type. */
export const MISSING_PAIRING_MESSAGE =
  'Name the deployment: npm run deploy -- -c region=<region> -c cloudProvider=<cloudProvider>' +
  '  (for example -c region=europe-west1 -c cloudProvider=gcp; npm run synth -- takes the same)';

/** The pairing is not named: not a fault of the app, so `infra/app.ts` prints the message alone. */
export class MissingPairingError extends Error {
  constructor() {
    super(MISSING_PAIRING_MESSAGE);
  }
}

/** Reads the deployment from the CDK context (`app.node.tryGetContext`). */
export function deploymentContext(context: (name: string) => unknown): DeploymentContext {
  const text = (name: string) => {
    const value = context(name);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const region = text('region');
  const cloudProvider = text('cloudProvider');
  if (!region || !cloudProvider) throw new MissingPairingError();
  const domain = text('domain');
  const hostedZoneId = text('hostedZoneId');
  return {
    region,
    cloudProvider,
    customDomain: domain
      ? { domain, hostedZone: hostedZoneId ? { id: hostedZoneId, name: text('hostedZoneName') ?? domain } : undefined, certificateArn: text('certificateArn') }
      : undefined,
    lastModifiedIndex: String(context('lastModifiedIndex')).trim() !== 'false',
    accessLog: String(context('accessLog')).trim() !== 'false',
  };
}
