import { describe, expect, it } from 'vitest';
import { endpoints, fallback } from '../../../functions/endpoints';
import { createGateway, requestTime } from '../../../local/gateway';

describe('the events the local gateway hands the handlers', () => {
  it('requestContext.time is written as API Gateway writes it', () => {
    expect(requestTime(new Date('2026-03-05T07:08:09.123Z'))).toBe('05/Mar/2026:07:08:09 +0000');
    expect(requestTime(new Date('2026-11-23T17:30:45Z'))).toBe('23/Nov/2026:17:30:45 +0000');
  });

  it('a routed request: route key, decoded path parameters, the raw query, the time twice', async () => {
    let received: any;
    const gateway = createGateway({
      endpoints,
      fallback,
      loadHandler: async () => async (event) => {
        received = event;
        return { statusCode: 200, body: '{}' };
      },
      authorizer: async () => ({ isAuthorized: true, context: { authenticated: 'true', clientId: 'c', scope: 'view_test:demo', expiresAt: '9999999999' } }),
    });
    const before = Date.now();
    const answer = await gateway.answer({ method: 'GET', url: '/demo/resource/key=a%20b?limit=2&limit=3', headers: { authorization: 'Bearer t' }, body: Buffer.alloc(0) });
    expect(answer.statusCode).toBe(200);
    expect(received.routeKey).toBe('GET /{projectKey}/resource/{id}');
    expect(received.pathParameters).toEqual({ projectKey: 'demo', id: 'key=a b' });
    expect(received.rawQueryString).toBe('limit=2&limit=3');
    expect(received.queryStringParameters).toEqual({ limit: '2,3' });
    expect(received.requestContext.timeEpoch).toBeGreaterThanOrEqual(before);
    expect(received.requestContext.time).toBe(requestTime(new Date(received.requestContext.timeEpoch)));
  });
});
