import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { requestHandler } from './request-timeouts';
import { withoutSdkLogging } from './sdk-logging';

/**
 * The Lambda client that invokes extension functions; the composition root creates it on the first
 * Lambda call, so static and HTTP bindings never pay for it. Endpoints come from the SDK's own
 * settings (`AWS_ENDPOINT_URL_LAMBDA`).
 */
export function createLambdaClient(): LambdaClient {
  return withoutSdkLogging(new LambdaClient({ requestHandler: requestHandler() }));
}

/**
 * The service's Lambda invoker (the port `LambdaInvoker` of services/extension-forwarding/, which
 * the composition root checks it against; adapters do not import services): a synchronous Invoke,
 * cancelled at the caller's deadline, retried as the SDK's standard retry does. The function's
 * IAM grant (`extensions:invoke`) allows `lambda:InvokeFunction` on `gr-extension-*`.
 */
export class AwsLambdaInvoker {
  constructor(private readonly client: () => LambdaClient) {}

  async invoke(functionName: string, payload: string, signal: AbortSignal): Promise<{ functionError?: string; payload: string }> {
    const command = new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: Buffer.from(payload, 'utf8') });
    const answer = await this.client().send(command, { abortSignal: signal });
    return { ...(answer.FunctionError ? { functionError: answer.FunctionError } : {}), payload: answer.Payload ? Buffer.from(answer.Payload).toString('utf8') : '' };
  }
}
