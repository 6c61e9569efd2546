import { randomUUID } from 'node:crypto';
import type middy from '@middy/core';
import type { ApiEvent, ApiResult } from '../api-types';

export const CORRELATION_ID_HEADER = 'x-correlation-id';
/** Echo what callers send only when it is a sane token; anything else gets a fresh id. */
const ACCEPTABLE = /^[\w.:/-]{1,256}$/;

/**
 * The correlation id of a request: the caller's own X-Correlation-ID when it is a sane token, else
 * a new one. The handlers' middleware and the local gateway's own refusals both take it from here.
 */
export function correlationIdOf(given: string | undefined): string {
  return given !== undefined && ACCEPTABLE.test(given) ? given : `projects-${randomUUID()}`;
}

/** Every answer carries X-Correlation-ID: the caller's own, else a new one. */
export function correlationId(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const stamp = (request: middy.Request<ApiEvent, ApiResult>) => {
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, 'X-Correlation-ID': request.event.headers[CORRELATION_ID_HEADER]! };
  };
  return {
    before: ({ event }) => {
      event.headers ??= {};
      event.headers[CORRELATION_ID_HEADER] = correlationIdOf(event.headers[CORRELATION_ID_HEADER]);
    },
    after: stamp,
    onError: stamp,
  };
}
