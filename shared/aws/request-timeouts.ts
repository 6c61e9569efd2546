import { NodeHttpHandler } from '@smithy/node-http-handler';
import { requestDeadline } from './deadline';

/**
 * How long one attempt of an AWS call may take, for every client the service creates (DynamoDB,
 * S3, KMS, Lambda). The SDK's own defaults never give up on a connection and wait 300 s on a silent one
 * (DynamoDB's socket default): with these an attempt fails with TimeoutError, which the SDK
 * retries (DynamoDB: 4 attempts). The timer stops at the answer's status line, not its body;
 * the request's deadline (deadline.ts) covers the rest. 2 s is far beyond what DynamoDB and KMS answer
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

/** The request handler of every AWS client: REQUEST_HANDLER's timeouts per attempt, and the running request's deadline. */
class DeadlineBoundHandler extends NodeHttpHandler {
  override handle(request: Parameters<NodeHttpHandler['handle']>[0], options: Parameters<NodeHttpHandler['handle']>[1] = {}) {
    return super.handle(request, { ...options, abortSignal: options.abortSignal ?? requestDeadline() });
  }
}

export const requestHandler = () => new DeadlineBoundHandler(REQUEST_HANDLER);
