import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import { principalFrom } from '../../auth/principal';
import { logger } from '../../observability/logger';
import { metrics } from '../../observability/metrics';
import type { ApiEvent, ApiResult } from '../api-types';

/**
 * Observability of every endpoint: each log line of the request carries its correlation id,
 * route, project and client id (never a token or a secret), and each request adds its latency
 * (whose sample count is the request count) and, when it failed, its error to the route's metrics
 * (EMF). Runs after the correlation id is settled and
 * sees the final response, errors included.
 */
export function observe(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  let started = 0;
  const record = (request: middy.Request<ApiEvent, ApiResult>) => {
    const status = request.response?.statusCode ?? 500;
    metrics.addDimension('route', request.event.routeKey);
    // Latency's SampleCount is the request count; errors are written only when they happen. Every
    // byte of this line is paid per request as log ingestion, so it stays this small.
    metrics.addMetric('Latency', MetricUnit.Milliseconds, Math.round(performance.now() - started));
    if (status >= 500) metrics.addMetric('ServerErrors', MetricUnit.Count, 1);
    else if (status >= 400) metrics.addMetric('ClientErrors', MetricUnit.Count, 1);
    metrics.publishStoredMetrics();
    logger.debug('request answered', { status, method: request.event.requestContext.http.method });
  };
  return {
    before: ({ event, context }) => {
      started = performance.now();
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
