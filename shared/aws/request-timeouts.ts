import { AsyncLocalStorage } from 'node:async_hooks';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { NoAnswerError } from '../domain/errors';

/**
 * How long one attempt of an AWS call may take, for every client the service creates (DynamoDB,
 * S3, KMS). The SDK's own defaults never give up on a connection and wait 300 s on a silent one
 * (DynamoDB's socket default): with these an attempt fails with TimeoutError, which the SDK
 * retries (DynamoDB: 4 attempts). The timer stops at the answer's status line, not its body;
 * the request's deadline (below) covers the rest. 2 s is far beyond what DynamoDB and KMS answer
 * in (milliseconds), what an S3 PUT of the largest image (4.4 MB) takes within a region, and when
 * S3 starts answering a copy. A write retried after a timeout may have been applied by the
 * attempt that timed out, or still be running: transactions are resent with the same
 * ClientRequestToken (shared/store/dynamodb/operations.ts, sendTransaction), and every
 * single-item write that could not bear being applied twice carries a write token
 * (shared/store/dynamodb/write-tokens.ts), so each is applied, and answered, once.
 */
export const REQUEST_HANDLER = {
  /** A TCP connection that is not open after this long is given up. */
  connectionTimeout: 1_000,
  /** Nor is an answer whose status has not come this long after the request was sent. */
  requestTimeout: 2_000,
  /** Since @smithy/node-http-handler 4.4, without this a late answer only logs a warning. */
  throwOnRequestTimeout: true,
} as const;

/** Every function's timeout (infra/constructs/endpoint-function.ts; the local gateway gives the same). */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** A request gives up this long before its function's timeout: time to answer 503 and write its line. */
export const DEADLINE_MARGIN_MS = 1_000;

const deadlines = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs one invocation under one deadline, DEADLINE_MARGIN_MS before its function's timeout: every
 * AWS call it makes is aborted then (the clients' request handler below: connection, answer and
 * body alike, retries included), and whatever the work awaits, it is given up then with
 * NoAnswerError.
 */
export async function withDeadline<T>(context: { getRemainingTimeInMillis?(): number }, work: () => Promise<T>): Promise<T> {
  const remaining = context.getRemainingTimeInMillis?.() ?? FUNCTION_TIMEOUT_SECONDS * 1000; // Lambda always tells; some tests do not
  const signal = AbortSignal.timeout(Math.max(0, remaining - DEADLINE_MARGIN_MS));
  let giveUp = () => {};
  const passed = new Promise<never>((_, reject) => {
    giveUp = () => reject(new NoAnswerError(signal.reason));
    signal.addEventListener('abort', giveUp, { once: true });
  });
  try {
    return await Promise.race([deadlines.run(signal, work), passed]);
  } catch (error) {
    throw signal.aborted && !(error instanceof NoAnswerError) ? new NoAnswerError(error) : error;
  } finally {
    signal.removeEventListener('abort', giveUp);
  }
}

/** The request handler of every AWS client: REQUEST_HANDLER's timeouts per attempt, and the running request's deadline. */
class DeadlineBoundHandler extends NodeHttpHandler {
  override handle(request: Parameters<NodeHttpHandler['handle']>[0], options: Parameters<NodeHttpHandler['handle']>[1] = {}) {
    return super.handle(request, { ...options, abortSignal: options.abortSignal ?? deadlines.getStore() });
  }
}

export const requestHandler = () => new DeadlineBoundHandler(REQUEST_HANDLER);
