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
