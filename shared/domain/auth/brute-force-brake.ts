/**
 * The brute-force brake of client authentication (POST /oauth/token and /oauth/introspect).
 *
 * A client id is not secret (it is in every token), so failures are never counted per client
 * alone — a stranger could then lock the owner out. They are counted per client AND source
 * address: at most `maxAttempts` unsuccessful attempts per client from one source within a fixed
 * window of `windowSeconds`. The owner calling from another address is never affected by
 * failures elsewhere; secrets are high-entropy (256 bits), so the brake only has to keep guessing
 * slow, not impossible. Flooding from many sources is the job of the per-source rate limits in
 * front (API Gateway throttle, the optional WAF rate rule: docs/security.md).
 *
 * The secret is checked first, and only failures are counted: a right secret never writes, so a
 * right secret is never refused for an attempt whose answer was lost. While a source holds
 * `maxAttempts` failures, every attempt from it — right or wrong — is answered 429 with
 * Retry-After (BrakedError), which tells nothing about the secret. The counter is met after the
 * check, by a conditional write (a failure) or a consistent read (a right secret): of any burst,
 * at most `maxAttempts` wrong secrets are answered as wrong, and a right one gets through only
 * ahead of them.
 */
export interface BrakePolicy {
  /** Unsuccessful attempts per client and source within one window. */
  maxAttempts: number;
  windowSeconds: number;
}

export const BRAKE: BrakePolicy = { maxAttempts: 10, windowSeconds: 15 * 60 };

/** One fixed window of the brake: its number, its attempt limit, and when its counters may go (epoch seconds). */
export interface AttemptWindow {
  index: number;
  maxAttempts: number;
  endsAt: number;
}

export function attemptWindow(now: number, policy: BrakePolicy = BRAKE): AttemptWindow {
  const index = Math.floor(now / policy.windowSeconds);
  return { index, maxAttempts: policy.maxAttempts, endsAt: (index + 1) * policy.windowSeconds };
}

/**
 * The source address as the brake keys it: an IPv4 or IPv6 address as API Gateway reports it
 * (requestContext.http.sourceIp). Anything else — missing, or not an address — is one shared
 * source, `unknown`, so a caller cannot mint fresh sources by sending odd values.
 */
export function brakeSource(sourceIp: string | undefined): string {
  return sourceIp && /^[0-9A-Fa-f:.]{2,45}$/.test(sourceIp) ? sourceIp.toLowerCase() : 'unknown';
}

/** What the brake needs of the store (DynamoDbClientStore implements it: shared/store/client-store.ts). */
export interface AttemptCounter {
  /** How many failures of `clientId` from `source` `window` holds (a consistent read). */
  failuresIn(clientId: string, source: string, window: AttemptWindow): Promise<number>;
  /**
   * Counts the failure `attemptId` of `clientId` from `source` in `window`, unless it already holds
   * `window.maxAttempts` others: then false. Counting the same failure again changes nothing.
   */
  countFailure(clientId: string, source: string, window: AttemptWindow, attemptId: string): Promise<boolean>;
}

/** A source braked for a client: every attempt from it is refused until its window ends. */
export class BrakedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed client authentications from this address. Please retry later.');
  }
}

export const epochSeconds = (date = new Date()) => Math.floor(date.getTime() / 1000);
