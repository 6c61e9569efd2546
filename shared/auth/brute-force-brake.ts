/**
 * The brute-force brake of client authentication (POST /oauth/token and /oauth/introspect):
 * after `maxFailures` wrong secrets within `windowSeconds` of the first one, the client is locked
 * for `lockSeconds` after the last counted failure. A locked client is refused (401
 * invalid_client, the same answer as a wrong secret) without its secret being checked, and
 * failures while locked are not counted, so the lock ends on time.
 *
 * The counters live on the client's own item (see DynamoDbClientStore.countFailure); only
 * failures of existing clients are counted — unknown client ids have nothing to lock.
 */
export interface BrakePolicy {
  maxFailures: number;
  windowSeconds: number;
  lockSeconds: number;
}

export const BRAKE: BrakePolicy = { maxFailures: 10, windowSeconds: 15 * 60, lockSeconds: 15 * 60 };

/** Failed authentications of a client in its current window; times in epoch seconds. */
export interface AuthFailures {
  count: number;
  windowStart: number;
  lastAt: number;
}

/** When the lock ends (epoch seconds), or undefined when the failures do not lock the client. */
export function lockedUntil(failures: AuthFailures | undefined, policy: BrakePolicy = BRAKE): number | undefined {
  if (!failures || failures.count < policy.maxFailures) return undefined;
  return failures.lastAt + policy.lockSeconds;
}

export function isLocked(failures: AuthFailures | undefined, now: number, policy: BrakePolicy = BRAKE): boolean {
  const until = lockedUntil(failures, policy);
  return until !== undefined && now < until;
}

/** Whether a new failure at `now` counts in the same window, or opens a new one. */
export function inWindow(failures: AuthFailures | undefined, now: number, policy: BrakePolicy = BRAKE): failures is AuthFailures {
  return failures !== undefined && now < failures.windowStart + policy.windowSeconds;
}

export const epochSeconds = (date = new Date()) => Math.floor(date.getTime() / 1000);
