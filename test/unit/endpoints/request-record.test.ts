import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoint, ok } from '../../../shared/http/endpoint';
import { defineEndpoint, route } from '../../../shared/http/declaration';
import { ResourceNotFoundError } from '../../../shared/domain/errors';
import { logger } from '../../../shared/observability/logger';

const things = defineEndpoint({
  name: 'read-thing',
  permissions: [],
  routes: [
    route({
      method: 'GET',
      path: '/{projectKey}/things/{id}',
      access: { kind: 'project', anyOf: ['view_test'] },
      body: 'none',
      summary: 'One thing.',
      pathParameters: { projectKey: { description: 'The project.' }, id: { description: 'The thing.' } },
      responses: { 200: { description: 'The thing.' } },
      errors: ['NotFound'],
    }),
  ],
});
const handler = endpoint(things, async ({ path }) => {
  if (path.id === 'missing') throw new ResourceNotFoundError(`The thing '${path.id}'`);
  if (path.id === 'broken') throw new Error('the store fell over', { cause: Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }) });
  if (path.id === 'warned') logger.warn('something to look at', { detail: 'x' });
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

/** What the handler writes to stdout, as Lambda hands it to CloudWatch Logs: one event per line. */
let written: string[] = [];
beforeEach(() => {
  // As in Lambda: the function's applicationLogLevelV2 (INFO) reaches the code as AWS_LAMBDA_LOG_LEVEL.
  vi.stubEnv('AWS_LAMBDA_LOG_LEVEL', 'INFO');
  written = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
const lines = () => written.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line));

describe('what a request leaves in the logs', () => {
  it.each([
    ['answered', 'thing-1', 200, undefined],
    ['refused', 'missing', 404, 'ResourceNotFound'],
  ])('one line per %s request, with exactly level, route, status, latency, project, client id, correlation id and a refusal\'s code', async (_, id, status, error) => {
    const answer = await handler(eventFor(id), context);
    expect(answer.statusCode).toBe(status);
    expect(written).toHaveLength(1);
    expect(written[0]!.endsWith('}\n')).toBe(true);
    const [line] = lines();
    expect(Object.keys(line)).toEqual(['level', 'route', 'status', 'ms', 'project', 'clientId', 'correlationId', ...(error ? ['code'] : [])]);
    expect(line).toEqual({
      level: 'INFO',
      route: 'GET /{projectKey}/things/{id}',
      status,
      ms: expect.any(Number),
      project: 'demo',
      clientId: 'client-7',
      correlationId: 'corr-123',
      ...(error ? { code: error } : {}),
    });
    expect(Number.isInteger(line.ms) && line.ms >= 0).toBe(true);
    expect(written[0]).not.toContain('secret-token');
  });

  it('a failure: one ERROR line with what operators need (error name, message, where, its cause), then the request line; no token', async () => {
    const answer = await handler(eventFor('broken'), context);
    expect(answer.statusCode).toBe(500);
    const [error, request] = lines();
    expect(error).toEqual({
      level: 'ERROR',
      msg: 'request failed',
      route: 'GET /{projectKey}/things/{id}',
      project: 'demo',
      clientId: 'client-7',
      correlationId: 'corr-123',
      error: {
        name: 'Error',
        message: 'the store fell over',
        at: expect.any(String),
        cause: { name: 'ThrottlingException', message: 'Rate exceeded', at: expect.any(String) },
      },
    });
    expect(request).toMatchObject({ level: 'INFO', status: 500, correlationId: 'corr-123' });
    expect(written.join('')).not.toContain('secret-token');
  });

  it('a warning during a request carries the request\'s keys; a line after the request does not', async () => {
    await handler(eventFor('warned'), context);
    expect(lines()[0]).toEqual({
      level: 'WARN',
      msg: 'something to look at',
      route: 'GET /{projectKey}/things/{id}',
      project: 'demo',
      clientId: 'client-7',
      correlationId: 'corr-123',
      detail: 'x',
    });
    logger.warn('between requests');
    expect(lines().at(-1)).toEqual({ level: 'WARN', msg: 'between requests' });
  });

  it('writes nothing below the level Lambda is configured with (AWS_LAMBDA_LOG_LEVEL)', async () => {
    vi.stubEnv('AWS_LAMBDA_LOG_LEVEL', 'WARN');
    await handler(eventFor('thing-1'), context);
    await handler(eventFor('warned'), context);
    expect(lines().map((line) => line.level)).toEqual(['WARN']);
    vi.stubEnv('AWS_LAMBDA_LOG_LEVEL', '');
    await handler(eventFor('thing-1'), context); // unset: INFO
    expect(lines().at(-1)).toMatchObject({ level: 'INFO', status: 200 });
  });
});
