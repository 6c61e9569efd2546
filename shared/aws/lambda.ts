import { partition } from '@aws-sdk/core/client';
import { HttpRequest } from '@smithy/core/protocols';
import { NodeHttpHandler, streamCollector } from '@smithy/node-http-handler';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { settingsFromEnvironment, signerFor, type SignedRequestSettings } from './signed-requests';

/**
 * Lambda's Invoke operation, sent with the AWS SDK's own parts — its credentials chain, SigV4
 * signer, SHA-256, endpoint partitions and node HTTP handler, which every function already carries
 * for DynamoDB — instead of `@aws-sdk/client-lambda`: that client registers all of Lambda's ≈ 80
 * operations and their errors at load (≈ 85 KB of bundle for one call). Like the SDK's standard
 * retry, a throttled Invoke (429: the function did not run) is tried again, at most 3 attempts
 * with full-jitter backoff, within the caller's deadline; other refusals are the caller's to judge
 * (a 5xx may come after the function ran).
 * `test/unit/aws/lambda-invoke.test.ts` holds the request identical to the SDK client's.
 */

/** One Invoke: the function, its event, the caller's deadline. */
export interface LambdaInvokeRequest {
  functionName: string;
  /** The event, UTF-8 JSON text. */
  payload: string;
  signal: AbortSignal;
}

/** What the function answered; the service's port (`LambdaInvocation`) has this shape. */
export interface LambdaInvokeAnswer {
  /** Lambda's `X-Amz-Function-Error` (e.g. `Unhandled`) when the function failed. */
  functionError?: string;
  /** The function's answer, UTF-8 JSON text. */
  payload: string;
}

/** A refusal of Lambda's own (not the function's): its error type names it, as the SDK would. */
export class LambdaServiceError extends Error {
  constructor(
    override readonly name: string,
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export type LambdaInvoke = (request: LambdaInvokeRequest) => Promise<LambdaInvokeAnswer>;

/**
 * The service's Lambda invoker (the port `LambdaInvoker` of services/extension-forwarding/, which
 * the composition root checks it against; adapters do not import services). Set up
 * on the first Lambda call, so static and HTTP bindings never pay for it. The function's IAM grant
 * (`extensions:invoke`) allows `lambda:InvokeFunction` on `gr-extension-*`.
 */
export class AwsLambdaInvoker {
  private send: LambdaInvoke | undefined;

  constructor(private readonly settings: () => SignedRequestSettings = () => settingsFromEnvironment('LAMBDA')) {}

  invoke(functionName: string, payload: string, signal: AbortSignal): Promise<LambdaInvokeAnswer> {
    this.send ??= createLambdaInvoke(this.settings());
    return this.send({ functionName, payload, signal });
  }
}

/** Lambda's regional endpoint in the region's partition (`amazonaws.com`, `amazonaws.com.cn`, …), unless one is set. */
export const lambdaEndpoint = (settings: SignedRequestSettings): URL =>
  new URL(settings.endpoint ?? `https://lambda.${settings.region}.${partition(settings.region).dnsSuffix}`);

export function createLambdaInvoke(settings: SignedRequestSettings): LambdaInvoke {
  const endpoint = lambdaEndpoint(settings);
  const signer = signerFor('lambda', settings);
  const http = new NodeHttpHandler();
  const basePath = endpoint.pathname.replace(/\/$/, '');

  const invokeOnce: LambdaInvoke = async ({ functionName, payload, signal }) => {
    const request = new HttpRequest({
      method: 'POST',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : undefined,
      path: `${basePath}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
      headers: {
        host: endpoint.host,
        'content-type': 'application/octet-stream',
        'content-length': String(Buffer.byteLength(payload)),
        'x-amz-invocation-type': 'RequestResponse',
      },
      body: payload,
    });
    const signed = await signer.sign(request);
    const { response } = await http.handle(signed as HttpRequest, { abortSignal: signal });
    const text = Buffer.from(await streamCollector(response.body as Readable)).toString('utf8');
    const header = (name: string) => response.headers[name] ?? response.headers[name.toLowerCase()];
    if (response.statusCode < 200 || response.statusCode >= 300) {
      // Lambda names its errors in a header (`ResourceNotFoundException:http://…`) and in the body.
      const type = header('x-amzn-errortype')?.split(':')[0] || errorTypeIn(text) || `HTTP${response.statusCode}`;
      throw new LambdaServiceError(type, response.statusCode, messageIn(text) ?? `Lambda answered ${response.statusCode}.`);
    }
    const functionError = header('x-amz-function-error');
    return { ...(functionError ? { functionError } : {}), payload: text };
  };

  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await invokeOnce(request);
      } catch (error) {
        const throttled = error instanceof LambdaServiceError && error.statusCode === 429;
        if (!throttled || attempt === MAX_ATTEMPTS) throw error;
        await sleep(Math.random() * RETRY_BASE_MS * 2 ** (attempt - 1), undefined, { signal: request.signal });
      }
    }
  };
}

/** The SDK's standard retry: 3 attempts, full jitter over 100 ms doubling. */
const MAX_ATTEMPTS = 3;
const RETRY_BASE_MS = 100;

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const errorTypeIn = (text: string) => {
  const type = parsed(text)?.__type;
  return typeof type === 'string' ? type.split('#').pop()?.split(':')[0] : undefined;
};

const messageIn = (text: string) => {
  const body = parsed(text);
  const message = body?.message ?? body?.Message;
  return typeof message === 'string' ? message : undefined;
};
