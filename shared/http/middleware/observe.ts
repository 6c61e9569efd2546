import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import { principalFrom } from '../../auth/principal';
import { logger } from '../../observability/logger';
import { metrics } from '../../observability/metrics';
import type { ApiEvent, ApiResult } from '../api-types';

/**
 * What each request leaves behind, between Powertools' own middlewares (see endpoint.ts:
 * `injectLambdaContext` adds the Lambda context to the logger and resets its keys after the
 * request; `logMetrics` writes the metrics once the request is answered). Every log line of the
 * request carries its correlation id, route, project and client id (never a token or a secret).
 * The request record is ONE line: the EMF metrics line of the request — its latency (whose sample
 * count is the request count) and, when it failed, its error, by route — which also carries the
 * correlation id, project, client id and status as metadata, so one line both feeds the metrics
 * and is the request log. Runs after the correlation id is settled and sees the final response,
 * errors included.
 */
export function observe(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  let started = 0;
  const record = (request: middy.Request<ApiEvent, ApiResult>) => {
    const { event } = request;
    const status = request.response?.statusCode ?? 500;
    metrics.addDimension('route', event.routeKey);
    // Every byte of this line is paid per request as log ingestion, so it holds only these fields.
    metrics.addMetric('Latency', MetricUnit.Milliseconds, Math.round(performance.now() - started));
    if (status >= 500) metrics.addMetric('ServerErrors', MetricUnit.Count, 1);
    else if (status >= 400) metrics.addMetric('ClientErrors', MetricUnit.Count, 1);
    metrics.addMetadata('status', String(status));
    const { route: _dimension, ...keys } = requestKeys(event);
    for (const [key, value] of Object.entries(keys)) if (value !== undefined) metrics.addMetadata(key, value);
  };
  return {
    before: ({ event }) => {
      started = performance.now();
      logger.appendKeys(requestKeys(event));
    },
    after: record,
    onError: record,
  };
}

/** What names a request in every line it leaves: never a token, a secret or a body. */
function requestKeys(event: ApiEvent) {
  return {
    correlation_id: event.headers['x-correlation-id'],
    route: event.routeKey,
    project: event.pathParameters?.projectKey,
    client_id: principalFrom(event.requestContext.authorizer?.lambda)?.clientId,
  };
}
