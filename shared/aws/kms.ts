import { KMSClient } from '@aws-sdk/client-kms';
import { requestHandler } from './request-timeouts';
import { withoutSdkLogging } from './sdk-logging';

/** The KMS client that signs tokens (issue-token) and reads the keys' public halves (get-jwks). */
export function createKmsClient(): KMSClient {
  return withoutSdkLogging(new KMSClient({ requestHandler: requestHandler() }));
}
