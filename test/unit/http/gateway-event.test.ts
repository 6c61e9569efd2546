import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { endpoints, fallback } from '../../../functions/endpoints';
import { createGateway } from '../../../local/gateway';
import { gatewayServer, type AnsweredRequest } from '../../../local/http-server';
import { exceedsLambdaPayload, LAMBDA_PAYLOAD_LIMIT_BYTES, lambdaPayloadBytes, requestTime } from '../../../local/lambda-events';

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
    });
    const server = gatewayServer(gateway, (answer) => answered.push(answer));
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

  it("the gateway's own refusals carry the caller's correlation id when it is a sane token, else a new one, as the handlers' answers do", async () => {
    const gateway = createGateway({ endpoints, fallback, loadHandler: async () => async () => ({ statusCode: 200, body: '{}' }), authorizer: async () => ({ isAuthorized: false, context: undefined as never }) });
    const refusedWith = async (correlationId: string) =>
      (await gateway.answer({ method: 'GET', url: '/demo/resource', headers: { 'x-correlation-id': correlationId }, body: Buffer.alloc(0) })).headers!['X-Correlation-ID'];
    expect(await refusedWith('shop-checkout:42')).toBe('shop-checkout:42');
    expect(await refusedWith('two words')).toMatch(/^projects-[0-9a-f-]{36}$/);
  });
});

describe("Lambda's 6,291,456-byte synchronous payload: a larger event never reaches the function", () => {
  const authorized = async () => ({ isAuthorized: true, context: { authenticated: 'true' as const, clientId: 'c', scope: 'manage_products:demo', expiresAt: '9999999999' } });
  const gatewayCounting = () => {
    const received: any[] = [];
    const gateway = createGateway({
      endpoints,
      fallback,
      loadHandler: async () => async (event) => {
        received.push(event);
        return { statusCode: 200, body: '{}' };
      },
      authorizer: authorized,
    });
    return { gateway, received };
  };
  const upload = (bytes: number, headers: Record<string, string> = { authorization: 'Bearer t', 'content-type': 'image/png' }) => ({
    method: 'POST',
    url: '/demo/resource/images?sku=s',
    headers,
    body: Buffer.alloc(bytes, 1),
  });

  it('measures the event as Lambda does: its JSON in bytes, a binary body base64-encoded', () => {
    const event = { version: '2.0', body: Buffer.alloc(3000).toString('base64'), isBase64Encoded: true, headers: { note: 'é' } } as any;
    expect(lambdaPayloadBytes(event)).toBe(Buffer.byteLength(JSON.stringify(event)));
    expect(lambdaPayloadBytes(event)).toBeGreaterThan(4000);
  });

  it('serialises an event to measure it only when its body could come near the limit; escapes count', () => {
    const small = { version: '2.0', body: '{"a":1}', headers: { authorization: 'Bearer t' } } as any;
    const stringify = vi.spyOn(JSON, 'stringify');
    expect(exceedsLambdaPayload(small)).toBe(false);
    expect(stringify).not.toHaveBeenCalled();
    stringify.mockRestore();
    // 1.1 million control characters: 1.1 MB of text, 6.6 MB once escaped in the event (\u0001 each).
    expect(exceedsLambdaPayload({ version: '2.0', body: '\u0001'.repeat(1_100_000) } as any)).toBe(true);
    expect(exceedsLambdaPayload({ version: '2.0', body: 'x'.repeat(1_100_000) } as any)).toBe(false);
  });

  it('an image of 4.6 MB (6.1 MB as base64) is handed over; one of 4.75 MB (6.3 MB) is 413 RequestEntityTooLarge without an invocation', async () => {
    const { gateway, received } = gatewayCounting();
    expect((await gateway.answer(upload(4_600_000))).statusCode).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0].routeKey).toBe('POST /{projectKey}/resource/images');
    expect(lambdaPayloadBytes(received[0])).toBeLessThanOrEqual(LAMBDA_PAYLOAD_LIMIT_BYTES);

    const refused = await gateway.answer(upload(4_750_000));
    expect(refused.statusCode).toBe(413);
    expect(JSON.parse(refused.body!)).toMatchObject({ statusCode: 413, message: expect.stringContaining(String(LAMBDA_PAYLOAD_LIMIT_BYTES)), errors: [{ code: 'RequestEntityTooLarge' }] });
    expect(refused.headers).toMatchObject({ 'apigw-requestid': expect.any(String) });
    expect(received).toHaveLength(1);
  });

  it('a text body counts as itself: 6 MB of JSON text is 413 too, under the gateway\'s own 10 MB', async () => {
    const { gateway, received } = gatewayCounting();
    const json = { method: 'POST', url: '/demo/resource', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: Buffer.from(`"${'x'.repeat(6_300_000)}"`) };
    expect((await gateway.answer(json)).statusCode).toBe(413);
    expect(received).toHaveLength(0);
  });

  it('the authorizer answers first, as in AWS: no token is 401 whatever the size', async () => {
    const { gateway } = gatewayCounting();
    expect((await gateway.answer(upload(4_750_000, { 'content-type': 'image/png' }))).statusCode).toBe(401);
  });
});
