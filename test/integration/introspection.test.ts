import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, devClient, forgeToken, tokenFor, validClaims } from './api-client';
import { basic, createTestClient, introspect, localStore, requestToken } from './test-clients';

/** POST /oauth/introspect (RFC 7662) against the local stack. */

const caller = basic(devClient.clientId, devClient.clientSecret);
const ask = (token: string, authorization: string | undefined = caller) => introspect(authorization, new URLSearchParams({ token }).toString());

describe('POST /oauth/introspect: who may ask', () => {
  it('refuses callers that do not authenticate as a client: 401 invalid_client', async () => {
    const token = await tokenFor('view_test:demo');
    // A wrong secret of a dedicated client: the development client must never come near the brake.
    const client = await createTestClient(['view_test:demo'], 'introspector');
    for (const authorization of [undefined, '', basic(client.clientId, 'wrong'), basic('nobody', 'x'), `Bearer ${token}`]) {
      const answer = await introspect(authorization, new URLSearchParams({ token }).toString());
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ statusCode: 401, errors: [{ code: 'invalid_client' }], error: 'invalid_client' });
      expect(answer.headers.get('www-authenticate')).toContain('Basic');
    }
  });

  it('refuses a client id no client can have (2100 characters, past the table\'s key size) as an unknown one: 401, not 500', async () => {
    const token = await tokenFor('view_test:demo');
    const unknown = await ask(token, basic('nobody', 'x'));
    const answer = await ask(token, basic('c'.repeat(2100), 'x'));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unknown.body);
  });

  it('needs the token parameter in a form body: 400 invalid_request', async () => {
    const missing = await introspect(caller, 'token_type_hint=access_token');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'invalid_request', errors: [{ code: 'invalid_request' }] });
    const json = await call('POST', '/oauth/introspect', { json: { token: 'x' }, headers: { authorization: caller } });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
  });
});

describe('POST /oauth/introspect: answers', () => {
  it('an active token: its claims, token_type Bearer, never cached', async () => {
    const token = await tokenFor('manage_test:demo view_test:demo');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    const answer = await ask(token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      active: true,
      scope: 'manage_test:demo view_test:demo',
      client_id: devClient.clientId,
      token_type: 'Bearer',
      exp: claims.exp,
      iat: claims.iat,
      nbf: claims.nbf,
      sub: devClient.clientId,
      aud: 'generic-resource-service',
      iss: claims.iss,
      jti: claims.jti,
    });
  });

  it('RFC 7662 §2.1: a client holding introspect_oauth_tokens:<project> may introspect tokens of that project', async () => {
    const server = await createTestClient(['introspect_oauth_tokens:demo'], 'introspector');
    const answer = await ask(await tokenFor('view_test:demo'), basic(server.clientId, server.secret));
    expect(answer.body).toMatchObject({ active: true, client_id: devClient.clientId });
    // Every project the token names must be covered.
    expect((await ask(await tokenFor('view_test:demo view_test:other'), basic(server.clientId, server.secret))).body).toEqual({ active: false });
  });

  it('refused: another client without the scope (even of the same project, even view-only) learns nothing — {active: false}', async () => {
    const stranger = await createTestClient(['view_test:demo'], 'introspector');
    const token = await tokenFor('manage_test:demo');
    const answer = await ask(token, basic(stranger.clientId, stranger.secret));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ active: false });
    const elsewhere = await createTestClient(['introspect_oauth_tokens:other'], 'introspector');
    expect((await ask(token, basic(elsewhere.clientId, elsewhere.secret))).body).toEqual({ active: false });
    // Its own tokens it may always introspect.
    const own = (await requestToken(basic(stranger.clientId, stranger.secret))).body.access_token as string;
    expect((await ask(own, basic(stranger.clientId, stranger.secret))).body).toMatchObject({ active: true, client_id: stranger.clientId });
  });

  it('{active: false} and nothing else for every token the API refuses', async () => {
    const now = Math.floor(Date.now() / 1000);
    const genuine = (await tokenFor('view_test:demo')).split('.');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreignInput = `${genuine[0]}.${genuine[1]}`;
    const inactive = [
      forgeToken(validClaims({ exp: now - 1, iat: now - 600, nbf: now - 600 })), // expired
      forgeToken(validClaims({ nbf: now + 600 })), // not yet valid
      forgeToken(validClaims({ exp: undefined })), // no expiry
      forgeToken(validClaims({ iss: 'https://attacker.example' })),
      forgeToken(validClaims({ aud: 'another-service' })),
      forgeToken(validClaims({ scope: ['manage_test:demo'] })),
      forgeToken(validClaims(), { kid: 'unknown-kid' }),
      forgeToken(validClaims({ padding: 'x'.repeat(8 * 1024) })), // oversized
      forgeToken(validClaims({ client_id: 'no-such-client', sub: 'no-such-client' })), // a client that does not exist
      `${foreignInput}.${sign('sha256', Buffer.from(foreignInput), privateKey).toString('base64url')}`, // foreign key
      `${genuine[0]}.${Buffer.from(JSON.stringify(validClaims({ scope: 'manage_test:demo' }))).toString('base64url')}.${genuine[2]}`, // tampered
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${genuine[1]}.`, // unsigned
      'not-a-jwt',
    ];
    for (const token of inactive) {
      const answer = await ask(token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ active: false });
    }
  });

  it('tokens of a revoked client are inactive, and the client gets no new ones', async () => {
    const server = await createTestClient(['introspect_oauth_tokens:demo'], 'introspector');
    const askAsServer = (token: string) => ask(token, basic(server.clientId, server.secret));
    const client = await createTestClient(['view_test:demo'], 'revoked');
    const issued = await requestToken(basic(client.clientId, client.secret));
    expect(issued.status).toBe(200);
    const token = issued.body.access_token as string;
    expect((await askAsServer(token)).body.active).toBe(true);

    expect(await localStore().revoke(client.clientId, new Date().toISOString())).toBe(true);
    expect((await askAsServer(token)).body).toEqual({ active: false });
    const refused = await requestToken(basic(client.clientId, client.secret));
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    // A revoked client cannot introspect either.
    expect((await ask(await tokenFor('view_test:demo'), basic(client.clientId, client.secret))).status).toBe(401);
  });
});
