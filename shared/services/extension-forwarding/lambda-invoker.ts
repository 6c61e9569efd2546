import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';

/**
 * Invokes the Lambda function an extension action is bound to (synchronously, RequestResponse).
 * The service builds the payload and reads the answer (extension-service.ts); an invoker only
 * carries bytes, within `signal`'s deadline.
 */
export interface LambdaInvoker {
  invoke(functionName: string, payload: string, signal: AbortSignal): Promise<LambdaInvocation>;
}

export interface LambdaInvocation {
  /** Set when the function failed (Lambda's `FunctionError`, e.g. `Unhandled`). */
  functionError?: string;
  /** The function's answer, UTF-8 JSON text. */
  payload: string;
}

/**
 * The AWS adapter: a synchronous Invoke with the SDK, cancelled when the deadline passes. The
 * client is created on the first Lambda call, so static and HTTP bindings never pay for it. The
 * function's IAM grant (`extensions:invoke`) allows `lambda:InvokeFunction` on `gr-extension-*`.
 */
export class AwsLambdaInvoker implements LambdaInvoker {
  private client: LambdaClient | undefined;

  constructor(private readonly createClient: () => LambdaClient) {}

  async invoke(functionName: string, payload: string, signal: AbortSignal): Promise<LambdaInvocation> {
    this.client ??= this.createClient();
    const out = await this.client.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: Buffer.from(payload, 'utf8') }),
      { abortSignal: signal },
    );
    return {
      functionError: out.FunctionError,
      payload: out.Payload ? Buffer.from(out.Payload).toString('utf8') : '',
    };
  }
}
