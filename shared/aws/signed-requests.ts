import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * What the requests the service signs itself need — Lambda's `Invoke` (lambda.ts) and S3's upload
 * URLs (s3-presign.ts), sent or signed without their SDK clients: a region, an endpoint when one is
 * set, and credentials, taken where an SDK client would take them.
 */
export interface SignedRequestSettings {
  region: string;
  /** `AWS_ENDPOINT_URL_<SERVICE>`, else `AWS_ENDPOINT_URL`, as the SDK reads them; else the service's regional endpoint. */
  endpoint?: string;
  /** The SDK's default chain when not given (in Lambda bundles: the environment's, infra/sdk-stand-ins/). */
  credentials?: ReturnType<typeof defaultProvider>;
}

/** The settings an SDK client of `service` would take from Lambda's environment (or local mode's). */
export function settingsFromEnvironment(service: 'LAMBDA' | 'S3', env: NodeJS.ProcessEnv = process.env): SignedRequestSettings {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) throw new Error(`AWS_REGION is not set: ${service} requests cannot be signed.`);
  const endpoint = env[`AWS_ENDPOINT_URL_${service}`] ?? env.AWS_ENDPOINT_URL;
  return endpoint ? { region, endpoint } : { region };
}

/** The SDK's SigV4 signer for `service`, with the settings' region and credentials. */
export function signerFor(
  service: string,
  settings: SignedRequestSettings,
  options: Pick<ConstructorParameters<typeof SignatureV4>[0], 'uriEscapePath' | 'applyChecksum'> = {},
): SignatureV4 {
  return new SignatureV4({ service, region: settings.region, credentials: settings.credentials ?? defaultProvider(), sha256: Sha256, ...options });
}
