import type middy from '@middy/core';
import { principalFrom } from '../../auth/principal';
import { logger } from '../../observability/logger';
import type { ApiEvent, ApiResult } from '../api-types';
import { apiErrorOf } from './error-responder';

/**
 * What each request leaves behind: ONE line, written once the request is answered (errors
 * included, after the error responder rendered them) — route, status, latency, project, client id,
 * correlation id and, for a refusal, its commercetools error code (never a token, a secret or a
 * body). The stack's metric filters turn these lines into the per-route Latency, ClientErrors,
 * ServerErrors and QueryTimedOut metrics (infra/constructs/monitoring.ts), so the request log and
 * the metrics are one source. Warnings
 * and errors the request logs meanwhile carry the same keys. Runs after the correlation id is
 * settled and sees the final response.
 */
export function observe(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  let started = 0;
  const record = (request: middy.Request<ApiEvent, ApiResult>) => {
    const { route, ...keys } = requestKeys(request.event);
    // A refusal is thrown and answered by the error responder: the code is its first error's.
    const code = request.error ? apiErrorOf(request.error).errors[0].code : undefined;
    logger.requestLine({ route, status: request.response?.statusCode ?? 500, ms: Math.round(performance.now() - started), ...keys, ...(code ? { code } : {}) });
    logger.clearRequestKeys();
  };
  return {
    before: ({ event }) => {
      started = performance.now();
      logger.setRequestKeys(requestKeys(event));
    },
    after: record,
    onError: record,
  };
}

/** What names a request in every line it leaves: never a token, a secret or a body. */
function requestKeys(event: ApiEvent) {
  return {
    route: event.routeKey,
    project: event.pathParameters?.projectKey,
    clientId: principalFrom(event.requestContext.authorizer?.lambda)?.clientId,
    correlationId: event.headers['x-correlation-id'],
  };
}
