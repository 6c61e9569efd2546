import { DatabaseError } from 'pg';
import { NoAnswerError } from '../../domain/errors';

/**
 * Whether PostgreSQL failed to answer rather than refused the statement: the connection could not
 * be made or broke (no SQLSTATE: refused, reset, timed out), or the server said so itself — a
 * sign-in refused or throttled (28: Aurora refuses IAM sign-ins past its rate), connection
 * exceptions (08), too many connections, for the server or the user (53300), shutting down,
 * starting up, resuming or closing an idle session ("cannot connect now", 57P0x), a statement
 * cancelled by its timeout (57014), a write reaching an instance a failover demoted (25006).
 */
export function isUnanswered(error: unknown): boolean {
  if (error instanceof DatabaseError) return UNANSWERED_SQLSTATE.test(error.code ?? '');
  if (error instanceof AggregateError && error.errors.some(isUnanswered)) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && NETWORK_CODES.has(code)) || DRIVER_MESSAGES.test(error.message);
}

const UNANSWERED_SQLSTATE = /^(08|28|53|57)|^25006$/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** What the pg driver says of a connection that could not be made or broke, or of its read timeout. */
const DRIVER_MESSAGES = /timeout|Connection terminated|not queryable/i;

/** Runs `work`, turning an engine that did not answer into NoAnswerError (503 with Retry-After). */
export async function answeredBy<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isUnanswered(error) ? new NoAnswerError(error) : error;
  }
}
