import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROJECT_SCOPE_NAMES } from '../../shared/auth/scopes';
import { MAX_TOKEN_LENGTH } from '../../shared/auth/tokens';
import { call, devClient, draftExample, forgeToken, tokenFor, validClaims } from './api-client';
import { createTestClient } from './test-clients';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = 'application/x-www-form-urlencoded';

const requestToken = (body: string, authorization = basic(devClient.clientId, devClient.clientSecret), query = '') =>
  call('POST', `/oauth/token${query}`, { body, headers: { 'content-type': form, authorization } });

describe('token service: POST /oauth/token (client credentials)', () => {
  it('issues an RS256 bearer token with the client scopes (the development client holds every project scope)', async () => {
    const answer = await requestToken('grant_type=client_credentials');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: expect.any(Number) });
    expect(answer.body.scope.split(' ').sort()).toEqual(
      PROJECT_SCOPE_NAMES.flatMap((scope) => devClient.projectKeys.map((project) => `${scope}:${project}`)).sort(),
    );
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const header = JSON.parse(Buffer.from(answer.body.access_token.split('.')[0], 'base64url').toString());
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
  });

  it('narrows to the requested scopes, from the body or the query', async () => {
    const fromBody = await requestToken('grant_type=client_credentials&scope=view_test:demo');
    expect(fromBody.body.scope).toBe('view_test:demo');
    const fromQuery = await requestToken('grant_type=client_credentials', undefined, '?scope=manage_test%3Ademo%20view_test%3Ademo');
    expect(fromQuery.body.scope).toBe('manage_test:demo view_test:demo');
  });

  it('refuses scopes beyond the grant: 400 invalid_scope', async () => {
    const answer = await requestToken('grant_type=client_credentials&scope=manage_test:demo manage_test:elsewhere');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_scope', errors: [{ code: 'invalid_scope' }] });
  });

  it('a token too long for the API to read is not issued: 400 invalid_scope asking for fewer; a narrower one is', async () => {
    const scopes = Array.from({ length: 200 }, (_, index) => `manage_test:project-with-a-long-key-${String(index).padStart(3, '0')}`);
    const client = await createTestClient(scopes, 'many-scopes');
    const refused = await requestToken('grant_type=client_credentials', basic(client.clientId, client.secret));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_scope' });
    expect(refused.body.error_description).toContain('ask for fewer with the scope parameter');
    const narrowed = await requestToken(`grant_type=client_credentials&scope=${scopes.slice(0, 20).join(' ')}`, basic(client.clientId, client.secret));
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.access_token.length).toBeLessThanOrEqual(MAX_TOKEN_LENGTH);
  });

  it('refuses a wrong secret, an unknown client or no credentials: 401 invalid_client', async () => {
    for (const authorization of [basic(devClient.clientId, 'wrong'), basic('nobody', 'x'), '', 'Bearer abc']) {
      const answer = await requestToken('grant_type=client_credentials', authorization);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ statusCode: 401, error: 'invalid_client', errors: [{ code: 'invalid_client' }] });
    }
  });

  it('refuses a client id no client can have (2100 characters, past the table\'s key size; outside the alphabet) as an unknown one: 401, not 500', async () => {
    const unknown = await requestToken('grant_type=client_credentials', basic('nobody', 'x'));
    for (const clientId of ['c'.repeat(2100), 'a@b']) {
      const answer = await requestToken('grant_type=client_credentials', basic(clientId, 'x'));
      expect(answer.status, clientId.slice(0, 10)).toBe(401);
      expect(answer.body, clientId.slice(0, 10)).toEqual(unknown.body);
      expect(answer.headers.get('www-authenticate')).toBe(unknown.headers.get('www-authenticate'));
    }
  });

  it('refuses other grants: 400 unsupported_grant_type; a missing grant: 400 invalid_request', async () => {
    const password = await requestToken('grant_type=password&username=a&password=b');
    expect(password.status).toBe(400);
    expect(password.body.error).toBe('unsupported_grant_type');
    const missing = await requestToken('scope=view_test:demo');
    expect(missing.body.error).toBe('invalid_request');
  });

  it('a query string that cannot be read is 400 invalid_request in RFC 6749\'s shape too', async () => {
    const answer = await requestToken('grant_type=client_credentials', undefined, '?x=%ED%A0%80');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('percent-encoded'), errors: [{ code: 'invalid_request' }] });
  });

  it('refuses a parameter given twice: 400 invalid_request (RFC 6749 §3.2)', async () => {
    for (const body of ['grant_type=client_credentials&grant_type=password', 'grant_type=client_credentials&scope=view_test:demo&scope=manage_test:demo']) {
      const answer = await requestToken(body);
      expect(answer.status, body).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      expect(answer.body.error_description).toMatch(/^The parameter (grant_type|scope) is given more than once\.$/);
    }
  });

  it('publishes the verifying keys as a JWKS', async () => {
    const answer = await call('GET', '/oauth/jwks');
    expect(answer.status).toBe(200);
    expect(answer.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), n: expect.any(String) });
    expect(answer.body.keys[0].d).toBeUndefined();
  });
});

describe('authorizer and scopes in front of every endpoint', () => {
  const read = (token?: string, project = 'demo') => call('GET', `/${project}/resource/key=any-key`, { token });
  const write = (token: string, project = 'demo') => call('POST', `/${project}/resource`, { token, json: draftExample });

  const expectRefusal = (answer: { status: number; body: any }, status: number, code: string) => {
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ statusCode: status, errors: [{ code }] });
  };

  it('no token, a malformed one or another scheme: 401 invalid_token', async () => {
    expectRefusal(await read(), 401, 'invalid_token');
    expectRefusal(await read('not-a-jwt'), 401, 'invalid_token');
    expectRefusal(await call('GET', '/demo/resource/x', { headers: { authorization: basic('a', 'b') } }), 401, 'invalid_token');
  });

  it('expired, not-yet-valid, exp-less, foreign-issuer and foreign-audience tokens: 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const refusedClaims = [
      validClaims({ exp: now - 60, iat: now - 600, nbf: now - 600 }),
      validClaims({ nbf: now + 600 }),
      validClaims({ exp: undefined }),
      validClaims({ iss: 'https://evil.example' }),
      validClaims({ aud: 'someone-else' }),
    ];
    for (const claims of refusedClaims) expectRefusal(await read(forgeToken(claims)), 401, 'invalid_token');
    // The same forging path makes an acceptable token: the refusals above are about the claims.
    expect((await read(forgeToken(validClaims()))).status).toBe(404);
  });

  it('a token signed by a foreign key or tampered with: 401', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const genuine = forgeToken(validClaims());
    const [header, payload] = genuine.split('.');
    const foreign = `${header}.${payload}.${sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url')}`;
    expectRefusal(await read(foreign), 401, 'invalid_token');
    const tampered = `${header}.${Buffer.from(JSON.stringify(validClaims({ scope: 'manage_test:other' }))).toString('base64url')}.${genuine.split('.')[2]}`;
    expectRefusal(await read(tampered), 401, 'invalid_token');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expectRefusal(await read(unsigned), 401, 'invalid_token');
  });

  it('a view-only token reads but may not write: 403 insufficient_scope naming the scopes', async () => {
    const viewer = await tokenFor('view_test:demo');
    expect((await read(viewer)).status).toBe(404);
    const refused = await write(viewer);
    expectRefusal(refused, 403, 'insufficient_scope');
    expect(refused.body.message).toContain('manage_test:demo');
  });

  it('a token for one project never reaches another, even after its verdict is cached', async () => {
    const demoOnly = await tokenFor('manage_test:demo');
    expect((await write(demoOnly)).status).toBe(201);
    expectRefusal(await write(demoOnly, 'other'), 403, 'insufficient_scope');
    expectRefusal(await read(demoOnly, 'other'), 403, 'insufficient_scope');
    expectRefusal(await read(forgeToken(validClaims({ scope: 'manage_test:demox' }))), 403, 'insufficient_scope');
    expectRefusal(await read(forgeToken(validClaims({ scope: 'manage_test:dem' }))), 403, 'insufficient_scope');
  });

  it('manage_products alone opens none of the resource routes', async () => {
    const products = await tokenFor('manage_products:demo');
    expectRefusal(await read(products), 403, 'insufficient_scope');
    expectRefusal(await write(products), 403, 'insufficient_scope');
  });
});
