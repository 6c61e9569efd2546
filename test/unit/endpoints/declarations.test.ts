import { existsSync, readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { endpoints, fallback, functions } from '../../../functions/endpoints';
import { PROJECT_SCOPE_NAMES } from '../../../shared/auth/scopes';
import type { ApiEvent } from '../../../shared/http/api-types';
import {
  checkEndpoint,
  defineEndpoint,
  EndpointDeclarationError,
  route,
  routeKey,
  type EndpointDeclaration,
  type RouteDeclaration,
} from '../../../shared/http/declaration';
import { endpoint, ok } from '../../../shared/http/endpoint';
import { idempotencyKeys } from '../../../shared/http/idempotency-keys';
import { jsonBody } from '../../../shared/http/json-body-pipeline';

process.env.AWS_LAMBDA_LOG_LEVEL = 'WARN'; // no request lines in the test output

/** A project route of a made-up endpoint; each test changes what it is about. */
const projectRoute = route({
  method: 'GET',
  path: '/{projectKey}/things',
  access: { kind: 'project', anyOf: ['manage_test'] },
  body: 'none',
  summary: 'Things.',
  pathParameters: { projectKey: { description: 'The project.' } },
  responses: { 200: { description: 'Things.' } },
  errors: [],
});
const declarationWith = (changes: Partial<RouteDeclaration>): EndpointDeclaration => ({
  name: 'list-things',
  permissions: [],
  routes: [{ ...projectRoute, ...changes }],
});

describe('an endpoint whose access cannot be enforced is refused (fail closed)', () => {
  it('does not compile without scopes, with an unknown scope, or without an access rule (and would not load either)', () => {
    const typed = (access: RouteDeclaration['access']) => () =>
      defineEndpoint({ name: 'typed-things', permissions: [], routes: [route({ ...projectRoute, access })] });
    // @ts-expect-error A project route must accept at least one scope: the type is a non-empty tuple.
    expect(typed({ kind: 'project', anyOf: [] })).toThrow(/at least one scope/);
    // @ts-expect-error Scope names come from shared/auth/scopes.ts.
    expect(typed({ kind: 'project', anyOf: ['admin'] })).toThrow(/unknown scopes/);
    // @ts-expect-error Every route says who may call it.
    expect(typed({ kind: 'project' })).toThrow(/at least one scope/);
    // @ts-expect-error `access` is required.
    expect(() => defineEndpoint({ name: 'typed-things', permissions: [], routes: [route({ ...projectRoute, access: undefined })] })).toThrow(/no access rule/);
  });

  it.each([
    ['no scope', { access: { kind: 'project', anyOf: [] } as unknown as RouteDeclaration['access'] }, /at least one scope/],
    ['no access rule', { access: undefined as unknown as RouteDeclaration['access'] }, /no access rule/],
    ['an access kind it does not know', { access: { kind: 'anyone' } as unknown as RouteDeclaration['access'] }, /no access rule/],
    ['a scope nobody declared', { access: { kind: 'project', anyOf: ['admin'] } as unknown as RouteDeclaration['access'] }, /unknown scopes: admin/],
    ['a path parameter it does not describe', { pathParameters: {} as RouteDeclaration['pathParameters'] }, /path parameters/],
  ])('refuses a route with %s when its module loads', (_, changes, message) => {
    expect(() => defineEndpoint(declarationWith(changes))).toThrow(EndpointDeclarationError);
    expect(() => defineEndpoint(declarationWith(changes))).toThrow(message);
    // The handler builder checks again: an unchecked object cannot become a Lambda handler either.
    expect(() => endpoint(declarationWith(changes), async () => ok({}))).toThrow(message);
  });

  it('a JSON route is read by the jsonBody pipeline its handler gives, and only a JSON route', () => {
    const json = declarationWith({ method: 'POST', body: 'json' });
    expect(() => endpoint(json, async () => ok({}))).toThrow(/takes JSON bodies: its handler must give endpoint\(\) the jsonBody pipeline/);
    expect(() => endpoint(json, async () => ok({}), jsonBody)).not.toThrow();
    expect(() => endpoint(declarationWith({}), async () => ok({}), jsonBody)).toThrow(/body pipeline for routes that take no JSON/);
  });

  it('an endpoint that declares idempotencyKey is built with idempotencyKeys, and only such an endpoint; it needs projects:write', () => {
    const keyed = { ...declarationWith({ method: 'DELETE' }), permissions: ['projects:write'], idempotencyKey: true } as const satisfies EndpointDeclaration;
    const keys = idempotencyKeys(() => {
      throw new Error('not called: nothing is sent');
    });
    expect(() => endpoint(keyed, async () => ok({}))).toThrow(/declares idempotencyKey: its handler must give endpoint\(\) idempotencyKeys/);
    expect(() => endpoint(keyed, async () => ok({}), undefined, keys)).not.toThrow();
    expect(() => endpoint(declarationWith({}), async () => ok({}), undefined, keys)).toThrow(/given idempotencyKeys without declaring idempotencyKey/);
    expect(() => checkEndpoint({ ...keyed, permissions: ['projects:read'] })).toThrow(/without projects:write/);
  });

  it('refuses an endpoint with no route or no name', () => {
    expect(() => checkEndpoint({ name: 'nothing', permissions: [], routes: [] as unknown as EndpointDeclaration['routes'] })).toThrow(/no route/);
    expect(() => checkEndpoint({ ...declarationWith({}), name: '' })).toThrow(/folder name/);
  });
});

describe('the handler built from a declaration enforces its access rule', () => {
  const handle = vi.fn(async () => ok({ things: [] }));
  const handler = endpoint(declarationWith({}), handle);
  const invoke = (event: ApiEvent) => handler(event, { functionName: 'list-things', awsRequestId: randomUUID() } as Context);

  const eventFor = (scope: string | undefined, routeKeyOfEvent = 'GET /{projectKey}/things', expiresAt = '9999999999'): ApiEvent =>
    ({
      version: '2.0',
      routeKey: routeKeyOfEvent,
      rawPath: '/demo/things',
      rawQueryString: '',
      headers: {},
      pathParameters: { projectKey: 'demo' },
      requestContext: {
        http: { method: 'GET', path: '/demo/things' },
        routeKey: routeKeyOfEvent,
        authorizer: {
          lambda:
            scope === undefined
              ? { authenticated: 'false', reason: 'The Authorization header must be "Bearer <access token>".' }
              : { authenticated: 'true', clientId: 'c', scope, expiresAt },
        },
      },
      isBase64Encoded: false,
    }) as unknown as ApiEvent;

  it('answers 401 invalid_token without a verified token, and never runs the handler', async () => {
    handle.mockClear();
    const answer = await invoke(eventFor(undefined));
    expect(answer.statusCode).toBe(401);
    expect(JSON.parse(answer.body!).errors[0].code).toBe('invalid_token');
    expect(handle).not.toHaveBeenCalled();
  });

  it('answers 401 invalid_token for a verdict whose token has expired since (API Gateway keeps verdicts 300 s)', async () => {
    handle.mockClear();
    const now = Math.floor(Date.now() / 1000);
    for (const expiresAt of [String(now - 1), String(now - 299), 'not a time', '']) {
      const answer = await invoke(eventFor('manage_test:demo', undefined, expiresAt));
      expect(answer.statusCode, expiresAt).toBe(401);
      expect(JSON.parse(answer.body!).errors[0]).toMatchObject({ code: 'invalid_token', message: 'The access token expired.' });
    }
    expect(handle).not.toHaveBeenCalled();
    expect((await invoke(eventFor('manage_test:demo', undefined, String(now + 60)))).statusCode).toBe(200);
  });

  it('answers 403 insufficient_scope when the token lacks the scope, or holds it for another project', async () => {
    handle.mockClear();
    for (const scope of ['view_test:demo', 'manage_products:demo', 'manage_test:other', '']) {
      const answer = await invoke(eventFor(scope));
      expect(answer.statusCode, scope).toBe(403);
      expect(JSON.parse(answer.body!).errors[0].code).toBe('insufficient_scope');
    }
    expect(handle).not.toHaveBeenCalled();
  });

  it('runs the handler when the token holds an accepted scope for the path\'s project', async () => {
    const answer = await invoke(eventFor('view_test:demo manage_test:demo'));
    expect(answer.statusCode).toBe(200);
    expect(handle).toHaveBeenCalledOnce();
  });

  it('reads the body of its JSON routes only, when it serves others beside them', async () => {
    const mixed: EndpointDeclaration = { ...declarationWith({}), routes: [projectRoute, { ...projectRoute, method: 'POST', body: 'json' }] };
    const echo = endpoint(mixed, async ({ body }) => ok({ body: body ?? null }), jsonBody);
    const send = async (method: 'GET' | 'POST', headers: Record<string, string>, body?: string) => {
      const event = eventFor('manage_test:demo', `${method} /{projectKey}/things`);
      const answer = await echo({ ...event, headers, body, requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method } } } as ApiEvent, {
        functionName: 'list-things',
        awsRequestId: randomUUID(),
      } as Context);
      return { status: answer.statusCode, body: JSON.parse(answer.body!) };
    };
    expect(await send('GET', {})).toEqual({ status: 200, body: { body: null } });
    expect(await send('POST', { 'content-type': 'application/json' }, '{"a":[1]}')).toEqual({ status: 200, body: { body: { a: [1] } } });
    expect((await send('POST', { 'content-type': 'text/plain' }, 'a')).status).toBe(415);
    expect((await send('POST', { 'content-type': 'application/json' }, '{')).status).toBe(400);
  });

  it('refuses (500, handler not run) a route it does not declare, instead of serving it unchecked', async () => {
    handle.mockClear();
    const answer = await invoke(eventFor('manage_test:demo', 'GET /{projectKey}/other-things'));
    expect(answer.statusCode).toBe(500);
    expect(handle).not.toHaveBeenCalled();
  });
});

describe('the list of endpoints', () => {
  it('holds valid declarations, each accepting only declared scopes on its project routes', () => {
    for (const declaration of [...endpoints, fallback]) {
      expect(() => checkEndpoint(declaration), declaration.name).not.toThrow();
      for (const served of declaration.routes) {
        if (served.access.kind === 'project') expect(served.access.anyOf.every((scope) => PROJECT_SCOPE_NAMES.includes(scope))).toBe(true);
      }
    }
  });

  it('names every function after its folder, and every folder of functions/ is in the list', () => {
    const root = new URL('../../../functions/', import.meta.url);
    const folders = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(functions.map((declaration) => declaration.name).sort()).toEqual(folders.sort());
    for (const { name } of functions) expect(existsSync(new URL(`${name}/handler.ts`, root)), name).toBe(true);
  });

  it('serves each route key once', () => {
    const keys = endpoints.flatMap((declaration) => declaration.routes.map(routeKey));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
