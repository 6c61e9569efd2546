import { LambdaClient } from '@aws-sdk/client-lambda';
import { withoutSdkLogging } from './sdk-logging';

/** The Lambda client that invokes extension functions; the composition root creates it on the first Lambda call. */
export function createLambdaClient(): LambdaClient {
  return withoutSdkLogging(new LambdaClient({}));
}
