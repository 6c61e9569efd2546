import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { endpoints, fallback } from '../../../functions/endpoints';
import { createGateway, requestTime, type AnsweredRequest } from '../../../local/gateway';

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

  it('the line npm start prints per request names a refusal\'s code, as the request line does in AWS, and the answer\'s correlation id', async () => {
    const answered: AnsweredRequest[] = [];
    const gateway = createGateway({
      endpoints,
      fallback,
      loadHandler: async () => async (event) =>
        event.rawQueryString === 'text.en=x'
          ? { statusCode: 400, body: JSON.stringify({ statusCode: 400, message: 'm', errors: [{ code: 'QueryTimedOut', message: 'm' }] }) }
          : { statusCode: 200, headers: { 'X-Correlation-ID': 'corr-1' }, body: '{}' },
      authorizer: async () => ({ isAuthorized: true, context: { authenticated: 'true', clientId: 'c', scope: 'view_test:demo', expiresAt: '9999999999' } }),
      onAnswered: (answer) => answered.push(answer),
    });
    const server = createServer((request, response) => void gateway.handle(request, response));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/demo/resource/searchApiPattern`;
    try {
      for (const query of ['text.en=x', 'text.en=y']) await (await fetch(`${base}?${query}`, { headers: { authorization: 'Bearer t' } })).arrayBuffer();
      await (await fetch(base)).arrayBuffer(); // no token: the gateway's own 401
    } finally {
      server.close();
    }
    expect(answered.map(({ status, code, correlationId }) => ({ status, code, correlationId }))).toEqual([
      { status: 400, code: 'QueryTimedOut', correlationId: '' },
      { status: 200, code: undefined, correlationId: 'corr-1' },
      { status: 401, code: expect.any(String), correlationId: expect.any(String) },
    ]);
  });
});
