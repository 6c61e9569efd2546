import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORS_POLICY } from '../../../shared/http/cors';

/**
 * In AWS the `$default` route catches CORS preflights before API Gateway's corsPreflight answers
 * them (an HTTP API answers them itself only where no route catches them), so its function answers
 * them as corsPreflight would, for the origins of `-c corsOrigins` (CORS_ORIGINS).
 */
beforeAll(() => {
  process.env.CORS_ORIGINS = 'https://shop.example';
  process.env.AWS_LAMBDA_LOG_LEVEL = 'WARN';
});

const event = (method: string, headers: Record<string, string>): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: '/demo/resource/namespace-action',
    rawQueryString: '',
    headers,
    requestContext: { http: { method, path: '/demo/resource/namespace-action', sourceIp: '203.0.113.7' }, routeKey: '$default' },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const invoke = async (method: string, headers: Record<string, string>) => {
  const { handler } = await import('../../../functions/route-not-found/handler');
  return handler(event(method, headers) as never, { functionName: 'route-not-found', awsRequestId: 'r1' } as Context);
};

describe('the $default route\'s function and CORS preflights', () => {
  it('answers a preflight from an allowed origin with 204 and the allow headers, no body, no token needed', async () => {
    const answer = await invoke('OPTIONS', { origin: 'https://shop.example', 'access-control-request-method': 'POST' });
    expect(answer.statusCode).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': 'https://shop.example',
      'access-control-allow-methods': CORS_POLICY.allowMethods.join(','),
      'access-control-allow-headers': CORS_POLICY.allowHeaders.join(','),
    });
  });

  it('answers a preflight from another origin with 204 and no allow headers', async () => {
    const answer = await invoke('OPTIONS', { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' });
    expect(answer.statusCode).toBe(204);
    expect(answer.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('answers an OPTIONS that is no preflight as before: 405 with the methods of the path', async () => {
    const answer = await invoke('OPTIONS', {});
    expect(answer.statusCode).toBe(405);
    expect(JSON.parse(answer.body!).errors[0].code).toBe('MethodNotAllowed');
  });
});
