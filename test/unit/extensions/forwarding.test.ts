import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtensionAction } from '../../../shared/domain/extensions/actions.js';
import type { ExtensionBinding, JsonValue } from '../../../shared/domain/extensions/binding.js';
import { CART_EXAMPLE } from '../../../shared/domain/extensions/default-bindings.js';
import { verifySignature } from '../../../shared/domain/extensions/signing.js';
import { DomainError } from '../../../shared/domain/errors.js';
import { toApiError } from '../../../shared/http/errors.js';
import {
  ExtensionBadResponseError,
  ExtensionTargetRefusedError,
  ExtensionTimeoutError,
  ExtensionUnreachableError,
} from '../../../shared/services/extension-forwarding/errors.js';
import { sendHttp } from '../../../shared/services/extension-forwarding/http-forwarder.js';
import type { LambdaInvoker } from '../../../shared/services/extension-forwarding/lambda-invoker.js';
import { checkTarget, type Resolver } from '../../../shared/services/extension-forwarding/target-policy.js';
import { JsonValueService } from '../../../shared/services/json-value-service';
import { ExtensionService, type ExtensionCall } from '../../../shared/services/extension-service.js';
import type { ExtensionStore } from '../../../shared/store/extension-store.js';
import type { JsonValueStore } from '../../../shared/store/json-value-store.js';

/** A loopback server whose behaviour each test sets. */
let server: Server;
let port: number;
let handle: (request: IncomingMessage, body: string, response: ServerResponse) => void = (_q, _b, response) => response.end('{}');
const received: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, headers: request.headers, body });
      handle(request, body, response);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const resolverOf = (table: Record<string, string[]>): Resolver => async (hostname) => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('target policy', () => {
  const resolve = resolverOf({
    'public.test': ['93.184.216.34'],
    'mixed.test': ['93.184.216.34', '10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    'v6metadata.test': ['fd00:ec2::254'],
    'loop.test': ['127.0.0.1'],
  });
  const aws = { localMode: false };
  const local = { localMode: true };

  it('allows https to public addresses and pins the address it checked', async () => {
    const target = await checkTarget(new URL('https://public.test/hook'), aws, resolve);
    expect(target).toMatchObject({ hostname: 'public.test', pinned: { address: '93.184.216.34', family: 4 } });
  });

  it('refuses http in AWS, even to public addresses', async () => {
    await expect(checkTarget(new URL('http://public.test/hook'), aws, resolve)).rejects.toBeInstanceOf(ExtensionTargetRefusedError);
  });

  it.each([
    'https://metadata.test/', 'https://v6metadata.test/', 'https://mixed.test/', 'https://loop.test/',
    'https://169.254.169.254/latest/meta-data', 'https://[fd00:ec2::254]/', 'https://127.0.0.1/', 'https://[::1]/',
    'https://10.1.2.3/', 'https://100.64.1.1/', 'https://[fe80::1]/', 'https://[fd01::1]/', 'https://[::ffff:127.0.0.1]/',
    'https://0x7f000001/', 'https://2130706433/', 'https://0177.0.0.1/',
  ])('refuses %s in AWS', async (url) => {
    await expect(checkTarget(new URL(url), aws, resolve)).rejects.toBeInstanceOf(ExtensionTargetRefusedError);
  });

  it('allows http and https to loopback in local mode, but still no private or metadata address', async () => {
    for (const url of ['http://127.0.0.1:9/', 'http://[::1]:9/', 'http://loop.test/', 'https://loop.test/', 'https://public.test/']) {
      await expect(checkTarget(new URL(url), local, resolve)).resolves.toBeDefined();
    }
    for (const url of ['http://public.test/', 'http://10.0.0.1/', 'https://metadata.test/', 'http://169.254.169.254/']) {
      await expect(checkTarget(new URL(url), local, resolve)).rejects.toBeInstanceOf(ExtensionTargetRefusedError);
    }
  });

  it('reports names that do not resolve as unreachable', async () => {
    await expect(checkTarget(new URL('https://nowhere.test/'), aws, resolve)).rejects.toBeInstanceOf(ExtensionUnreachableError);
  });
});

describe('http forwarding', () => {
  const options = { localMode: true, maxResponseBytes: 1024 };
  const signal = () => AbortSignal.timeout(500);

  it('connects to the pinned address whatever the name resolves to later', async () => {
    handle = (_request, _body, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    let lookups = 0;
    const resolve: Resolver = async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]);
    const answer = await sendHttp(
      { url: new URL(`http://rebind.test:${port}/x?y=1`), method: 'POST', headers: { a: 'b' }, body: '{"n":1}' },
      { ...options, resolve },
      signal(),
      500,
    );
    expect(lookups).toBe(1);
    expect(answer).toMatchObject({ statusCode: 200, contentType: 'application/json' });
    expect(answer.body.toString()).toBe('{"ok":true}');
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/x?y=1', body: '{"n":1}', headers: { host: `rebind.test:${port}`, a: 'b' } });
  });

  it('times out when the handler is slow', async () => {
    handle = (_request, _body, response) => setTimeout(() => response.end('{}'), 1000).unref();
    await expect(
      sendHttp({ url: new URL(`http://127.0.0.1:${port}/slow`), method: 'GET', headers: {} }, options, AbortSignal.timeout(200), 200),
    ).rejects.toBeInstanceOf(ExtensionTimeoutError);
  });

  it('refuses answers over the limit, declared or streamed', async () => {
    handle = (_request, _body, response) => response.end('x'.repeat(2048));
    await expect(sendHttp({ url: new URL(`http://127.0.0.1:${port}/big`), method: 'GET', headers: {} }, options, signal(), 500)).rejects.toThrow(
      /exceeds 1024 bytes/,
    );
    handle = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('"' + 'x'.repeat(800));
      response.end('x'.repeat(800) + '"');
    };
    await expect(sendHttp({ url: new URL(`http://127.0.0.1:${port}/chunked`), method: 'GET', headers: {} }, options, signal(), 500)).rejects.toThrow(
      /exceeds 1024 bytes/,
    );
  });

  it('gives up on an answer that switches protocols (101), open or closed after it, instead of waiting past the deadline', async () => {
    for (const keepOpen of [false, true]) {
      const raw = createNetServer((socket) => {
        socket.once('data', () => {
          socket.write('HTTP/1.1 101 Switching Protocols\r\nupgrade: x\r\nconnection: upgrade\r\n\r\n');
          if (!keepOpen) socket.end();
        });
      });
      await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
      const rawPort = (raw.address() as { port: number }).port;
      const started = Date.now();
      try {
        const sending = sendHttp({ url: new URL(`http://127.0.0.1:${rawPort}/ws`), method: 'GET', headers: {} }, options, AbortSignal.timeout(2000), 2000);
        await expect(sending).rejects.toBeInstanceOf(ExtensionBadResponseError);
        expect(Date.now() - started).toBeLessThan(1000);
      } finally {
        await new Promise((done) => raw.close(done));
      }
    }
  });

  it('reports a closed port as unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((done) => closed.close(done));
    await expect(
      sendHttp({ url: new URL(`http://127.0.0.1:${closedPort}/`), method: 'GET', headers: {} }, options, signal(), 500),
    ).rejects.toBeInstanceOf(ExtensionUnreachableError);
  });
});

class MemoryBindings implements ExtensionStore {
  readonly items = new Map<string, ExtensionBinding>();
  async get(projectKey: string, action: ExtensionAction) {
    return this.items.get(`${projectKey}/${action}`);
  }
  async put(binding: ExtensionBinding) {
    this.items.set(`${binding.projectKey}/${binding.action}`, binding);
  }
  async delete(projectKey: string, action: ExtensionAction) {
    return this.items.delete(`${projectKey}/${action}`);
  }
  async list() {
    return [...this.items.values()];
  }
}

class MemoryJsonValues implements JsonValueStore {
  readonly values = new Map<string, JsonValue>();
  async get(projectKey: string) {
    return this.values.has(projectKey) ? { found: true as const, value: this.values.get(projectKey)! } : { found: false as const };
  }
  async put(projectKey: string, value: JsonValue) {
    this.values.set(projectKey, value);
  }
}

describe('extension service', () => {
  const secret = 'gres_unit-test-secret-0123456789abcdefghijklmnop';
  const bindings = new MemoryBindings();
  let lambdaAnswer: Awaited<ReturnType<LambdaInvoker['invoke']>> | (() => Promise<never>) = { payload: '{}' };
  const invoked: { functionName: string; payload: string }[] = [];
  const lambda: LambdaInvoker = {
    invoke: async (functionName, payload) => {
      invoked.push({ functionName, payload });
      return typeof lambdaAnswer === 'function' ? lambdaAnswer() : lambdaAnswer;
    },
  };
  const service = (localMode: boolean) =>
    new ExtensionService({ bindings, lambda, localMode, timeoutMs: 300 });
  const call = (overrides: Partial<ExtensionCall> = {}): ExtensionCall => ({
    projectKey: 'p',
    action: 'namespace-action',
    method: 'GET',
    path: '/p/resource/namespace-action',
    query: new Map(),
    correlationId: 'corr-1',
    ...overrides,
  });
  const bind = (action: ExtensionAction, target: ExtensionBinding['target']) =>
    bindings.put({ projectKey: 'p', action, target, createdAt: new Date().toISOString() });
  const refusal = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return toApiError(error);
    }
    throw new Error('the call succeeded');
  };

  it('answers 404 naming the action when nothing is bound, and the cart of GET …/namespace-action-with-example by default', async () => {
    const missing = await refusal(service(true).call(call()));
    expect(missing.statusCode).toBe(404);
    expect(missing.body.errors[0]).toMatchObject({ code: 'ResourceNotFound', action: 'namespace-action' });
    expect(missing.message).toContain("'namespace-action'");
    expect(await service(true).call(call({ action: 'namespace-action-with-example' }))).toEqual({ statusCode: 200, body: CART_EXAMPLE });
  });

  it('forwards method, query, body and a verifiable signature, and relays status and body', async () => {
    await bind('namespace-action', { kind: 'http', url: `http://127.0.0.1:${port}/hook?fixed=1`, secret });
    handle = (_request, _body, response) => response.writeHead(201, { 'content-type': 'application/json' }).end('{"made":[1,2]}');
    const answer = await service(true).call(
      call({ method: 'POST', query: new Map([['a', ['1', 'x y']], ['b', ['&']]]), body: '{"n": 1}', contentType: 'application/json' }),
    );
    expect(answer).toEqual({ statusCode: 201, body: { made: [1, 2] } });
    const seen = received.at(-1)!;
    expect(seen).toMatchObject({ method: 'POST', url: '/hook?fixed=1&a=1&a=x%20y&b=%26', body: '{"n": 1}' });
    expect(seen.headers).toMatchObject({ 'x-extension-action': 'namespace-action', 'x-extension-project': 'p', 'x-correlation-id': 'corr-1' });
    const verdict = verifySignature(secret, seen.headers['x-extension-signature'] as string, { method: 'POST', pathAndQuery: seen.url!, body: seen.body });
    expect(verdict).toEqual({ valid: true });
  });

  it('answers 502 for non-JSON, redirects and empty bodies, 504 on timeout', async () => {
    await bind('namespace-action', { kind: 'http', url: `http://127.0.0.1:${port}/hook`, secret });
    const cases: [(response: ServerResponse) => void, number, string][] = [
      [(r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>'), 502, 'ExtensionBadResponse'],
      [(r) => r.end('not json'), 502, 'ExtensionBadResponse'],
      [(r) => r.writeHead(302, { location: 'http://169.254.169.254/' }).end(), 502, 'ExtensionBadResponse'],
      [(r) => r.writeHead(204).end(), 502, 'ExtensionBadResponse'],
      [(r) => setTimeout(() => r.end('{}'), 1000).unref(), 504, 'ExtensionNoResponse'],
    ];
    for (const [behave, status, code] of cases) {
      handle = (_request, _body, response) => behave(response);
      const error = await refusal(service(true).call(call()));
      expect(error.statusCode).toBe(status);
      expect(error.body.errors[0]).toMatchObject({ code, action: 'namespace-action' });
    }
  });

  it('reads an answer\'s media type as RFC 9110 allows (spaces around ";", an empty parameter), and only JSON as JSON', async () => {
    await bind('namespace-action', { kind: 'http', url: `http://127.0.0.1:${port}/hook`, secret });
    for (const [contentType, status] of [
      ['application/json ; charset=utf-8', 200],
      ['application/json;', 200],
      ['Application/Vnd.Api+JSON', 200],
      ['application/octet-stream; x=+json', 502],
    ] as const) {
      handle = (_request, _body, response) => response.writeHead(200, { 'content-type': contentType }).end('{"ok":true}');
      const answer = await service(true).call(call()).then(
        (relayed) => ({ statusCode: relayed.statusCode }),
        (error: unknown) => ({ statusCode: toApiError(error as DomainError).statusCode }),
      );
      expect(answer.statusCode, contentType).toBe(status);
    }
  });

  it('refuses a loopback handler outside local mode (502, nothing sent)', async () => {
    await bind('namespace-action', { kind: 'http', url: `https://127.0.0.1:${port}/hook`, secret });
    const before = received.length;
    const error = await refusal(service(false).call(call()));
    expect(error.statusCode).toBe(502);
    expect(received.length).toBe(before);
  });

  it('checks the POST body: 415 for another content type, 400 InvalidJsonInput for broken JSON', async () => {
    await bind('namespace-action', { kind: 'static', statusCode: 200, document: null });
    expect((await refusal(service(true).call(call({ method: 'POST', body: '{}', contentType: 'text/plain' })))).statusCode).toBe(415);
    const broken = await refusal(service(true).call(call({ method: 'POST', body: '{', contentType: 'application/json' })));
    expect(broken.statusCode).toBe(400);
    expect(broken.body.errors[0]?.code).toBe('InvalidJsonInput');
    expect(await service(true).call(call({ method: 'POST' }))).toEqual({ statusCode: 200, body: null });
  });

  it('invokes a bound Lambda function with a signed event and relays its {statusCode, body}', async () => {
    await bind('namespace-action', { kind: 'lambda', functionName: 'gr-extension-carts', secret });
    lambdaAnswer = { payload: JSON.stringify({ statusCode: 202, body: ['queued'] }) };
    const answer = await service(false).call(call({ method: 'POST', body: '{"a":1}', contentType: 'application/json', query: new Map([['q', ['1']]]) }));
    expect(answer).toEqual({ statusCode: 202, body: ['queued'] });
    const event = JSON.parse(invoked.at(-1)!.payload);
    expect(invoked.at(-1)!.functionName).toBe('gr-extension-carts');
    expect(event).toMatchObject({ action: 'namespace-action', projectKey: 'p', method: 'POST', rawQueryString: 'q=1', body: '{"a":1}' });
    expect(
      verifySignature(secret, event.headers['x-extension-signature'], { method: 'POST', pathAndQuery: '/p/resource/namespace-action?q=1', body: '{"a":1}' }),
    ).toEqual({ valid: true });

    lambdaAnswer = { functionError: 'Unhandled', payload: '{"errorMessage":"boom"}' };
    expect((await refusal(service(false).call(call()))).statusCode).toBe(502);
    lambdaAnswer = { payload: '{"body":1}' };
    expect((await refusal(service(false).call(call()))).statusCode).toBe(502);
    lambdaAnswer = () => new Promise<never>(() => undefined);
    expect((await refusal(service(false).call(call()))).statusCode).toBe(504);
    lambdaAnswer = () => Promise.reject(Object.assign(new Error('denied'), { name: 'AccessDeniedException' }));
    expect((await refusal(service(false).call(call()))).statusCode).toBe(502);
    // Local mode has no Lambda.
    expect((await refusal(service(true).call(call()))).statusCode).toBe(502);
  });

  it('stores any JSON value (PUT …/json-serializable-primitive-type) and refuses non-finite numbers', async () => {
    const jsonValues = new MemoryJsonValues();
    const rows = new JsonValueService(jsonValues);
    for (const value of [{}, [], 'raw string', '', 0, -1.5, true, false, null, { a: [null, { b: '' }] }]) {
      expect(await rows.put('p', value)).toEqual(value);
      expect(await jsonValues.get('p')).toEqual({ found: true, value });
    }
    expect((await refusal(rows.put('p', Number.POSITIVE_INFINITY))).body.errors[0]?.code).toBe('InvalidJsonInput');
  });
});
