import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LOCAL_HEADER_LIMIT_BYTES } from '../../shared/domain/limits';
import { baseUrl, call } from './api-client';

/**
 * What Node's HTTP parser refuses before the local gateway sees a request — a request line and
 * headers over 16 KB, an unknown method — is answered in the service's error shape, not with
 * Node's bare 400/431.
 */

/** Sends raw bytes and reads the whole answer (the gateway closes the connection after it). */
function raw(request: string): Promise<{ status: number; headers: string; body: any; bodyBytes: number }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: body ? JSON.parse(body) : undefined, bodyBytes: Buffer.byteLength(body) });
    });
  });
}

describe('requests Node refuses before the gateway', () => {
  it('a URL over 16 KB: 431 with a JSON body in the commercetools shape', async () => {
    const answer = await call('GET', `/demo/resource/test-type?where=${'x'.repeat(LOCAL_HEADER_LIMIT_BYTES + 1)}`);
    expect(answer.status).toBe(431);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.body).toEqual({
      statusCode: 431,
      message: `The request line and headers exceed the limit of ${LOCAL_HEADER_LIMIT_BYTES} bytes.`,
      errors: [{ code: 'RequestHeaderFieldsTooLarge', message: `The request line and headers exceed the limit of ${LOCAL_HEADER_LIMIT_BYTES} bytes.` }],
    });
  });

  it('a header over 16 KB: the same 431', async () => {
    const answer = await call('GET', '/demo/resource/test-type', { headers: { 'x-padding': 'p'.repeat(LOCAL_HEADER_LIMIT_BYTES + 1) } });
    expect(answer.status).toBe(431);
    expect(answer.body.errors[0].code).toBe('RequestHeaderFieldsTooLarge');
  });

  it('HEAD refused by the parser (over 16 KB, a malformed header): the status and headers only, no body after them', async () => {
    const long = await raw(`HEAD /demo/resource?where=${'x'.repeat(17_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(long.status).toBe(431);
    expect(long.headers).toContain('content-length: 0');
    expect(long.headers).toMatch(/x-correlation-id: projects-/);
    expect(long.bodyBytes).toBe(0);

    const malformed = await raw('HEAD /demo/resource HTTP/1.1\r\nHost: localhost\r\nnot a header\r\n\r\n');
    expect(malformed.status).toBe(400);
    expect(malformed.headers).toContain('content-length: 0');
    expect(malformed.bodyBytes).toBe(0);

    // GET keeps its JSON body, its length as declared.
    const get = await raw(`GET /demo/resource?where=${'x'.repeat(17_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(get.status).toBe(431);
    expect(get.headers).toContain(`content-length: ${get.bodyBytes}`);
    expect(get.body.errors[0].code).toBe('RequestHeaderFieldsTooLarge');
  });

  it('an unknown method (FOO): 405 MethodNotAllowed with Allow on a path that exists, 404 NotFound elsewhere', async () => {
    const known = await raw('FOO /demo/resource/test-type HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(known.status).toBe(405);
    expect(known.headers).toContain('content-type: application/json');
    expect(known.headers).toMatch(/allow: .*get/);
    expect(known.body).toMatchObject({ statusCode: 405, errors: [{ code: 'MethodNotAllowed', message: 'Method FOO is not allowed on /demo/resource/test-type.' }] });

    const unknown = await raw('FOO /no/such/path/at/all HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ statusCode: 404, errors: [{ code: 'NotFound' }] });
  });

  it('bytes that are not HTTP: 400 InvalidInput as JSON', async () => {
    const answer = await raw('this is not http\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidInput' }] });
  });
});
