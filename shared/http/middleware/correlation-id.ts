import { randomUUID } from 'node:crypto';
import type middy from '@middy/core';
import type { ApiEvent, ApiResult } from '../api-types';

const HEADER = 'x-correlation-id';
/** Echo what callers send only when it is a sane token; anything else gets a fresh id. */
const ACCEPTABLE = /^[\w.:/-]{1,256}$/;

/** Every answer carries X-Correlation-ID: the caller's own, else a new one. */
export function correlationId(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const stamp = (request: middy.Request<ApiEvent, ApiResult>) => {
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, 'X-Correlation-ID': request.event.headers[HEADER]! };
  };
  return {
    before: ({ event }) => {
      event.headers ??= {};
      const given = event.headers[HEADER];
      event.headers[HEADER] = given && ACCEPTABLE.test(given) ? given : `projects-${randomUUID()}`;
    },
    after: stamp,
    onError: stamp,
  };
}
