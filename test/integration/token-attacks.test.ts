import { createHmac, createPublicKey, generateKeyPairSync, randomUUID, sign, type JsonWebKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../functions/endpoints';
import type { RouteDeclaration as Route } from '../../shared/http/declaration';
import { baseUrl, call, forgeToken, tokenFor, validClaims, type ApiAnswer } from './api-client';

const routes: readonly Route[] = endpoints.flatMap((endpoint) => endpoint.routes);

/**
 * What an attacker can do with tokens, against the running local stack (the same authorizer,
 * gateway rules and handlers as in Lambda). Every attempt must be refused with the right status
 * and the commercetools error shape; docs/security.md lists each row.
 */

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A protected read that answers 404 to any valid token of project demo: the target of the attacks. */
const read = (authorization: string | undefined, path = '/demo/resource/key=no-such-key') =>
  call('GET', path, { headers: authorization === undefined ? {} : { authorization } });
const bearer = (token: string) => `Bearer ${token}`;

function expectRefusal(answer: ApiAnswer, status: 401 | 403, code: 'invalid_token' | 'insufficient_scope') {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({
    statusCode: status,
    message: expect.any(String),
    errors: [{ code, message: expect.any(String) }],
    error: code,
  });
  expect(answer.headers.get('www-authenticate')).toContain(`error="${code}"`);
}

const ourJwk = async (): Promise<JsonWebKey & { kid: string }> => (await call('GET', '/oauth/jwks')).body.keys[0];

describe('control: the forging path makes tokens the service accepts', () => {
  it('a token signed with the stack key and valid claims reads (404 for a missing key)', async () => {
    expect((await read(bearer(forgeToken(validClaims())))).status).toBe(404);
    expect((await read(bearer(await tokenFor('view_test:demo')))).status).toBe(404);
    // The scheme is case-insensitive (RFC 7235).
    expect((await read(`bearer ${await tokenFor('view_test:demo')}`)).status).toBe(404);
  });
});

describe('signature attacks: 401 invalid_token', () => {
  it('unsigned tokens (alg none, in any spelling, with or without a signature part)', async () => {
    const payload = encode(validClaims());
    const { kid } = await ourJwk();
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      expectRefusal(await read(bearer(`${encode({ alg, typ: 'JWT' })}.${payload}.`)), 401, 'invalid_token');
      expectRefusal(await read(bearer(`${encode({ alg, typ: 'JWT', kid })}.${payload}.`)), 401, 'invalid_token');
    }
    // A genuine signature re-used under alg none.
    const genuine = forgeToken(validClaims()).split('.');
    expectRefusal(await read(bearer(`${encode({ alg: 'none', kid })}.${genuine[1]}.${genuine[2]}`)), 401, 'invalid_token');
    expectRefusal(await read(bearer(`${encode({ alg: 'none' })}.${payload}`)), 401, 'invalid_token');
  });

  it('HS256 keyed with the public key (the RS/HS confusion), in every encoding of the key', async () => {
    const jwk = await ourJwk();
    const publicKey = createPublicKey({ key: { kty: 'RSA', n: jwk.n!, e: jwk.e! }, format: 'jwk' });
    const spki = publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const pkcs1 = publicKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    const secrets = [spki, spki.trim(), pkcs1, publicKey.export({ type: 'spki', format: 'der' }), JSON.stringify(jwk), jwk.n!];
    for (const secret of secrets) {
      for (const alg of ['HS256', 'HS384', 'HS512']) {
        const input = `${encode({ alg, typ: 'JWT', kid: jwk.kid })}.${encode(validClaims())}`;
        const mac = createHmac(`sha${alg.slice(2)}`, secret).update(input).digest('base64url');
        expectRefusal(await read(bearer(`${input}.${mac}`)), 401, 'invalid_token');
      }
    }
  });

  it('a foreign RSA key, under our kid, with its public key embedded (jwk) or linked (jku, x5u)', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { kid } = await ourJwk();
    const foreignJwk = publicKey.export({ format: 'jwk' });
    const headers = [
      { alg: 'RS256', typ: 'JWT', kid },
      { alg: 'RS256', typ: 'JWT', kid: 'attacker-key' },
      { alg: 'RS256', typ: 'JWT', kid, jwk: { ...foreignJwk, kid, alg: 'RS256', use: 'sig' } },
      { alg: 'RS256', typ: 'JWT', kid: 'attacker-key', jku: 'https://attacker.example/jwks.json' },
      { alg: 'RS256', typ: 'JWT', kid, x5u: 'https://attacker.example/cert.pem' },
    ];
    for (const header of headers) {
      const input = `${encode(header)}.${encode(validClaims())}`;
      const token = `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
      expectRefusal(await read(bearer(token)), 401, 'invalid_token');
    }
  });

  it('a genuine token whose payload was changed (wider scope, later expiry, another client)', async () => {
    const genuine = (await tokenFor('view_test:demo')).split('.');
    const claims = JSON.parse(Buffer.from(genuine[1]!, 'base64url').toString()) as Record<string, unknown>;
    for (const change of [{ scope: 'manage_test:demo' }, { exp: (claims.exp as number) + 3600 }, { client_id: 'someone-else', sub: 'someone-else' }]) {
      const tampered = `${genuine[0]}.${encode({ ...claims, ...change })}.${genuine[2]}`;
      expectRefusal(await read(bearer(tampered)), 401, 'invalid_token');
    }
    // A flipped signature bit, and a truncated signature.
    const signature = Buffer.from(genuine[2]!, 'base64url');
    signature[10]! ^= 1;
    expectRefusal(await read(bearer(`${genuine[0]}.${genuine[1]}.${signature.toString('base64url')}`)), 401, 'invalid_token');
    expectRefusal(await read(bearer(`${genuine[0]}.${genuine[1]}.${genuine[2]!.slice(0, 100)}`)), 401, 'invalid_token');
  });

  it('an unknown kid, and no kid, on a token signed by the stack key', async () => {
    expectRefusal(await read(bearer(forgeToken(validClaims(), { kid: 'unknown-kid' }))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims(), { kid: undefined }))), 401, 'invalid_token');
  });

  it('malformed tokens: not three parts, not base64url, not JSON', async () => {
    const [header, payload, signature] = forgeToken(validClaims()).split('.');
    for (const token of [`${header}.${payload}`, `${header}.${payload}.${signature}.extra`, 'a.b.c', `${header}.!!!.${signature}`, `${encode('x')}.${payload}.${signature}`]) {
      expectRefusal(await read(bearer(token)), 401, 'invalid_token');
    }
  });
});

describe('claim attacks on correctly signed tokens: 401 invalid_token', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('expired, not yet valid, or without an expiry', async () => {
    expectRefusal(await read(bearer(forgeToken(validClaims({ exp: now() - 1, iat: now() - 600, nbf: now() - 600 })))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims({ nbf: now() + 600 })))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims({ exp: undefined })))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims({ exp: String(now() + 600) })))), 401, 'invalid_token');
  });

  it('a token that expires while its verdict is cached (the gateway keeps verdicts 300 s, as API Gateway does)', async () => {
    const token = bearer(forgeToken(validClaims({ exp: now() + 2 })));
    expect((await read(token, '/demo/resource?limit=1')).status).toBe(200);
    await new Promise((done) => setTimeout(done, 2_500));
    const answer = await read(token, '/demo/resource?limit=1');
    expectRefusal(answer, 401, 'invalid_token');
    expect(answer.body.errors[0].message).toBe('The access token expired.');
  });

  it('another issuer or another audience', async () => {
    expectRefusal(await read(bearer(forgeToken(validClaims({ iss: 'https://attacker.example' })))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims({ iss: undefined })))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims({ aud: 'another-service' })))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims({ aud: undefined })))), 401, 'invalid_token');
  });

  it('a missing or non-string client_id', async () => {
    expectRefusal(await read(bearer(forgeToken(validClaims({ client_id: undefined })))), 401, 'invalid_token');
    expectRefusal(await read(bearer(forgeToken(validClaims({ client_id: 42 })))), 401, 'invalid_token');
  });

  it('a scope claim that is not the space-separated string we issue', async () => {
    const malformed: unknown[] = [
      ['manage_test:demo'],
      ['manage_test:demo', 'view_test:demo'],
      { 'manage_test:demo': true },
      42,
      null,
      undefined,
      'manage_test:demo ',
      ' manage_test:demo',
      'manage_test:demo  view_test:demo',
      'manage_test:demo\tview_test:demo',
      'manage_test:demo\nview_test:demo',
      'manage_test:"demo"',
    ];
    for (const scope of malformed) expectRefusal(await read(bearer(forgeToken(validClaims({ scope })))), 401, 'invalid_token');
  });

  it('a token over 8 KB, even when correctly signed', async () => {
    const oversized = forgeToken(validClaims({ padding: 'x'.repeat(8 * 1024) }));
    expect(oversized.length).toBeGreaterThan(8 * 1024);
    expectRefusal(await read(bearer(oversized)), 401, 'invalid_token');
    // The same claims under the limit are accepted: the length is what is refused.
    expect((await read(bearer(forgeToken(validClaims({ padding: 'x'.repeat(4 * 1024) }))))).status).toBe(404);
  });
});

describe('no bearer token on API routes: 401 invalid_token', () => {
  it('Basic credentials, an empty header, a bare scheme, other schemes, or the token in the query', async () => {
    const token = await tokenFor('view_test:demo');
    const basicOfDevClient = `Basic ${Buffer.from('test-client:test-secret-123').toString('base64')}`;
    for (const authorization of [basicOfDevClient, '', ' ', 'Bearer', 'Bearer ', `Token ${token}`, `Bearer ${token} extra`, token]) {
      expectRefusal(await read(authorization), 401, 'invalid_token');
    }
    expectRefusal(await read(undefined), 401, 'invalid_token');
    expectRefusal(await read(undefined, `/demo/resource/key=no-such-key?access_token=${token}`), 401, 'invalid_token');
  });
});

describe('scope attacks on correctly signed tokens: 403 insufficient_scope', () => {
  it('scopes of another project', async () => {
    expectRefusal(await read(bearer(await tokenFor('manage_test:other view_test:other'))), 403, 'insufficient_scope');
    expectRefusal(await read(bearer(forgeToken(validClaims({ scope: 'manage_test:other view_test:other manage_products:other' })))), 403, 'insufficient_scope');
    // The path's project is compared exactly, case included.
    expectRefusal(await read(bearer(await tokenFor('manage_test:demo')), '/DEMO/resource/key=no-such-key'), 403, 'insufficient_scope');
    expectRefusal(await read(bearer(await tokenFor('manage_test:demo')), '/Demo/resource/key=no-such-key'), 403, 'insufficient_scope');
  });

  it('look-alikes of manage_test:demo', async () => {
    const lookAlikes = [
      'manage_test:demox',
      'manage_test:dem',
      'manage_test:Demo',
      'MANAGE_TEST:demo',
      'Manage_test:demo',
      'manage_test:*',
      '*',
      'manage_test',
      'manage_test:',
      ':demo',
      'manage_test:demo,other',
      'manage_test:demo;view_test:demo',
      'manage_test%3Ademo',
      'manage_test:demo:x',
      'manage-test:demo',
      'manage_tests:demo',
      'view_test:demo2 manage_test:dem0',
      '',
    ];
    for (const scope of lookAlikes) {
      const answer = await read(bearer(forgeToken(validClaims({ scope }))));
      expect(answer.status, `scope ${JSON.stringify(scope)}`).toBe(403);
      expectRefusal(answer, 403, 'insufficient_scope');
    }
  });
});

/** A concrete path for a route of the table: plausible values for its parameters. */
function concretePath(route: Route, projectKey = 'demo'): string {
  return route.path
    .replace('{projectKey}', projectKey)
    .replace('{id}', randomUUID())
    .replace('{idOrKey}', randomUUID())
    .replace('{uriParameterOne}', 'uri-parameter-one=a')
    .replace('{uriParameterTwo}', 'b');
}

const projectRoutes = (routes as readonly Route[]).filter(
  (route): route is Route & { access: { kind: 'project'; anyOf: readonly string[] } } => route.access.kind === 'project',
);
const SCOPE_NAMES = ['manage_test', 'view_test', 'manage_products', 'manage_subscriptions', 'view_subscriptions'] as const;

describe('every route of the route table enforces its scopes', () => {
  // The routes no view scope opens.
  const writeRoutes = projectRoutes.filter((route) => !route.access.anyOf.some((scope) => scope.startsWith('view_')));

  it('has write routes to check', () => {
    expect(writeRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'DELETE /{projectKey}/resource/{id}',
      'PATCH /{projectKey}/resource',
      'POST /{projectKey}/resource',
      'POST /{projectKey}/resource/artificially-complex/path/{uriParameterOne}/{uriParameterTwo}',
      'POST /{projectKey}/resource/images',
      'POST /{projectKey}/resource/images/uploads',
      'POST /{projectKey}/resource/images/uploads/{uploadId}',
      'POST /{projectKey}/resource/namespace-action',
      'POST /{projectKey}/resource/{id}',
      'PUT /{projectKey}/resource',
      'PUT /{projectKey}/resource/json-serializable-primitive-type',
      'DELETE /{projectKey}/subscriptions/{idOrKey}',
      'POST /{projectKey}/subscriptions',
    ].sort());
  });

  it.each(writeRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'a view-only token (view_test:demo) on %s: 403 insufficient_scope',
    async (_, route) => {
      const answer = await call(route.method, concretePath(route), { token: await tokenFor('view_test:demo') });
      expectRefusal(answer, 403, 'insufficient_scope');
      for (const scope of route.access.anyOf) expect(answer.body.message).toContain(`${scope}:demo`);
    },
  );

  it('every scope a route does not list is refused on it, and so is every scope of another project', async () => {
    for (const route of projectRoutes) {
      for (const name of SCOPE_NAMES.filter((scope) => !route.access.anyOf.includes(scope))) {
        const answer = await call(route.method, concretePath(route), { token: forgeToken(validClaims({ scope: `${name}:demo` })) });
        expect(answer.status, `${name}:demo on ${route.method} ${route.path}`).toBe(403);
        if (route.method !== 'HEAD') expectRefusal(answer, 403, 'insufficient_scope');
      }
      const otherProject = forgeToken(validClaims({ scope: SCOPE_NAMES.map((name) => `${name}:other`).join(' ') }));
      const answer = await call(route.method, concretePath(route), { token: otherProject });
      expect(answer.status, `other project on ${route.method} ${route.path}`).toBe(403);
    }
  });

  it('without a token every project route is 401, and every public route is reachable', async () => {
    for (const route of projectRoutes) {
      const answer = await call(route.method, concretePath(route));
      expect(answer.status, `${route.method} ${route.path}`).toBe(401);
      if (route.method !== 'HEAD') expectRefusal(answer, 401, 'invalid_token');
    }
    for (const route of (routes as readonly Route[]).filter((candidate) => candidate.access.kind === 'public')) {
      // Public routes answer without a token (the OAuth ones then ask for client credentials: 401 invalid_client).
      const { status } = await fetch(`${baseUrl}${route.path}`, { method: route.method });
      expect([200, 400, 401], `${route.method} ${route.path}`).toContain(status);
    }
  });
});
