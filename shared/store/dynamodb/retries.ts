import { VersionConflictError } from '../../domain/errors';
import { RetryableRace } from './errors';

const MAX_ATTEMPTS = 6;

/**
 * Runs `attempt` again when it lost a race a fresh attempt can win (RetryableRace), with a
 * jittered backoff that spreads the writers that collided. After the last attempt the caller
 * gets a 409 without currentVersion: the client may retry.
 */
export async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RetryableRace)) throw error;
      if (round >= MAX_ATTEMPTS) throw new VersionConflictError(undefined, undefined);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * round));
    }
  }
}
