/** The store could not answer (throttled, or the engine failed): retryable, answered as 503. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('store unavailable', { cause });
  }
}
