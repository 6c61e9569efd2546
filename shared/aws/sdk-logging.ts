/** The name @aws-sdk/core gives the logger middleware it adds to every client. */
export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

interface SdkClient {
  middlewareStack: { remove(toRemove: string): boolean };
}

/**
 * Every SDK client carries a logger middleware that, after each command, walks the command's whole
 * input and output to mask sensitive fields for a log entry, then hands that entry to the client's
 * logger. The service gives no client a logger (the default one drops everything; the service
 * writes its own request line), so the walk is work for nothing, and it grows with the answer: a
 * `Query` of 100 items spends ≈ 25 % of the client's time in it (docs/performance.md). Every client
 * the service creates goes through here.
 */
export function withoutSdkLogging<Client extends SdkClient>(client: Client): Client {
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  return client;
}
