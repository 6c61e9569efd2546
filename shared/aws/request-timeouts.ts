/**
 * How long one attempt of an AWS call may take, for every client the service creates (DynamoDB,
 * S3, KMS, Lambda). The SDK's own defaults never give up on a connection and wait 300 s on a silent one
 * (DynamoDB's socket default), far past the functions' 10 s: a black-holed connection would end in
 * a Lambda timeout. With these an attempt fails with TimeoutError, which the SDK retries (DynamoDB:
 * 4 attempts, ≈ 8 s at worst) and the stores then answer 503 `OverCapacity`, like a throttled call.
 * The timer stops at the answer's status line, not its body: 2 s is far beyond what DynamoDB and
 * KMS answer in (milliseconds), what an S3 PUT of the largest image (4.4 MB) takes within a region,
 * and when S3 starts answering a copy (at once, whatever its size). A write retried after a
 * timeout may have been applied by the attempt that timed out, or still be running: transactions
 * are resent with the same ClientRequestToken, also while DynamoDB reports the first attempt in
 * progress (shared/store/dynamodb/operations.ts, sendTransaction), and every single-item write
 * that could not bear being applied twice
 * carries a write token (shared/store/dynamodb/write-tokens.ts), so each is applied, and answered,
 * once.
 */
export const REQUEST_HANDLER = {
  /** A TCP connection that is not open after this long is given up. */
  connectionTimeout: 1_000,
  /** Nor is an answer whose status has not come this long after the request was sent. */
  requestTimeout: 2_000,
  /** Since @smithy/node-http-handler 4.4, without this a late answer only logs a warning. */
  throwOnRequestTimeout: true,
} as const;
