import { AsyncLocalStorage } from 'node:async_hooks';
import { NoAnswerError } from '../domain/errors';

/** Every function's timeout (infra/constructs/endpoint-function.ts; the local gateway gives the same). */
export const FUNCTION_TIMEOUT_SECONDS = 10;

/** A request gives up this long before its function's timeout: time to answer 503 and write its line. */
export const DEADLINE_MARGIN_MS = 1_000;

const deadlines = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs one invocation under one deadline, DEADLINE_MARGIN_MS before its function's timeout: every
 * AWS call it makes is aborted then (the clients' request handler, request-timeouts.ts:
 * connection, answer and body alike, retries included), and whatever the work awaits, it is
 * given up then with NoAnswerError.
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

/** The deadline of the invocation running now, if any. */
export const requestDeadline = (): AbortSignal | undefined => deadlines.getStore();
