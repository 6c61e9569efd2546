import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// As in Lambda: metrics on, the code logging at INFO. Set before the observability singletons load.
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
const { endpoint, ok } = await import('../../../shared/http/endpoint');
const { defineEndpoint, route } = await import('../../../shared/http/declaration');
const { ResourceNotFoundError } = await import('../../../shared/domain/errors');

const things = defineEndpoint({
  name: 'read-thing',
  permissions: [],
  routes: [
    route({
      method: 'GET',
      path: '/{projectKey}/things/{id}',
      access: { kind: 'project', anyOf: ['view_test'] },
      body: 'none',
      rows: [],
      summary: 'One thing.',
      pathParameters: { projectKey: { description: 'The project.' }, id: { description: 'The thing.' } },
      responses: { 200: { description: 'The thing.' } },
      errors: ['NotFound'],
    }),
  ],
});
const handler = endpoint(things, async ({ path }) => {
  if (path.id === 'missing') throw new ResourceNotFoundError(`The thing '${path.id}'`);
  return ok({ id: path.id });
});

const eventFor = (id: string) =>
  ({
    version: '2.0',
    routeKey: 'GET /{projectKey}/things/{id}',
    rawPath: `/demo/things/${id}`,
    rawQueryString: '',
    headers: { 'x-correlation-id': 'corr-123', authorization: 'Bearer secret-token' },
    pathParameters: { projectKey: 'demo', id },
    requestContext: {
      http: { method: 'GET', path: `/demo/things/${id}` },
      routeKey: 'GET /{projectKey}/things/{id}',
      authorizer: { lambda: { authenticated: 'true', clientId: 'client-7', scope: 'view_test:demo', expiresAt: '9999999999' } },
    },
    isBase64Encoded: false,
  }) as never;
const context = { functionName: 'read-thing', awsRequestId: 'req-1', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:read-thing', memoryLimitInMB: '256', functionVersion: '$LATEST' } as Context;

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

describe('what a request leaves in the logs', () => {
  it.each([
    ['answered', 'thing-1', 200, undefined],
    ['refused', 'missing', 404, 'ClientErrors'],
  ])('one line per %s request: its metrics, with correlation id, route, project, client id and status', async (_, id, status, errorMetric) => {
    const answer = await handler(eventFor(id), context);
    expect(answer.statusCode).toBe(status);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      correlation_id: 'corr-123',
      route: 'GET /{projectKey}/things/{id}',
      project: 'demo',
      client_id: 'client-7',
      status: String(status),
      Latency: expect.any(Number),
    });
    const metricNames = line._aws.CloudWatchMetrics[0].Metrics.map((metric: { Name: string }) => metric.Name);
    expect(metricNames).toEqual(['Latency', ...(errorMetric ? [errorMetric] : [])]);
    expect(line._aws.CloudWatchMetrics[0].Dimensions[0]).toContain('route');
    expect(lines[0]).not.toContain('secret-token');
  });

  it('starts every request with fresh log keys (Powertools resets them after each request)', async () => {
    await handler(eventFor('thing-1'), context);
    const { logger } = await import('../../../shared/observability/logger');
    expect(logger.getPersistentLogAttributes()).not.toHaveProperty('correlation_id');
    logger.info('between requests');
    expect(JSON.parse(lines.at(-1)!)).not.toHaveProperty('correlation_id');
  });
});
