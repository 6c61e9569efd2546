import type middy from '@middy/core';
import { principalFrom } from '../../auth/principal';
import { logger } from '../../observability/logger';
import type { ApiEvent, ApiResult } from '../endpoint';

/**
 * Observability of every endpoint: each log line of the request carries its correlation id,
 * route, project and client id (never a token or a secret). A successful request writes no line
 * of its own: every log byte is paid per call, API Gateway's access log already has one line per
 * request and its route metrics count requests, latency and errors (docs/performance.md).
 * Runs after the correlation id is settled and sees the final response, errors included.
 */
export function observe(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const record = (request: middy.Request<ApiEvent, ApiResult>) => {
    logger.debug('request answered', { status: request.response?.statusCode ?? 500, method: request.event.requestContext.http.method });
  };
  return {
    before: ({ event, context }) => {
      logger.resetKeys();
      logger.addContext(context);
      logger.appendKeys({
        correlation_id: event.headers['x-correlation-id'],
        route: event.routeKey,
        project: event.pathParameters?.projectKey,
        client_id: principalFrom(event.requestContext.authorizer?.lambda)?.clientId,
      });
    },
    after: record,
    onError: record,
  };
}
