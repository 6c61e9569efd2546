import { createPublicKey, generateKeyPairSync, sign as signWithKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { introspect, mayIntrospect } from '../../../shared/auth/introspection';
import { toPublicJwk, type SigningKeys } from '../../../shared/auth/signing-keys';
import { VerificationKeysUnavailableError, createTokenVerifier } from '../../../shared/auth/token-verifier';
import { toApiError } from '../../../shared/http/errors';
import { MAX_TOKEN_LENGTH, issueAccessToken } from '../../../shared/auth/tokens';
import type { ApiClient } from '../../../shared/store/client-store';

const SETTINGS = { issuer: 'https://auth.example.test', audience: 'generic-resource-service', ttlSeconds: 600 };
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const jwk = toPublicJwk(createPublicKey(privateKey));
const keys: SigningKeys = {
  sign: async (data) => ({ kid: jwk.kid, signature: signWithKey('sha256', data, privateKey) }),
  publicJwks: async () => ({ keys: [jwk] }),
};
const verify = createTokenVerifier(keys, SETTINGS);

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
async function signed(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid: jwk.kid })}.${encode({
    iss: SETTINGS.issuer,
    aud: SETTINGS.audience,
    sub: 'c1',
    client_id: 'c1',
    iat: now,
    nbf: now,
    exp: now + 600,
    ...claims,
  })}`;
  return `${input}.${(await keys.sign(Buffer.from(input))).signature.toString('base64url')}`;
}

describe('the token verifier reads the scope claim only in the shape it is issued', () => {
  it('accepts a space-separated string, and the empty string', async () => {
    await expect(verify(await signed({ scope: 'manage_test:demo view_test:demo' }))).resolves.toMatchObject({ scope: 'manage_test:demo view_test:demo' });
    await expect(verify(await signed({ scope: '' }))).resolves.toMatchObject({ scope: '' });
  });

  it.each([[['manage_test:demo']], [42], [null], ['manage_test:demo '], [' manage_test:demo'], ['a  b'], ['a\tb']])('refuses scope %j', async (scope) => {
    await expect(verify(await signed({ scope }))).rejects.toThrow();
  });

  it('refuses an empty or non-string client_id', async () => {
    await expect(verify(await signed({ scope: 'x:y', client_id: '' }))).rejects.toThrow();
    await expect(verify(await signed({ scope: 'x:y', client_id: ['c1'] }))).rejects.toThrow();
  });
});

describe('introspect (RFC 7662)', () => {
  const client = (overrides: Partial<ApiClient> = {}): ApiClient => ({
    clientId: 'c1',
    name: 'c1',
    secretHash: 'scrypt$x',
    scopes: ['view_test:demo'],
    createdAt: '2024-01-01T00:00:00Z',
    ...overrides,
  });
  const storeOf = (found: ApiClient | undefined) => ({ get: async () => found });

  it('answers the claims of an active token', async () => {
    const { token } = await issueAccessToken(keys, SETTINGS, { clientId: 'c1', scopes: ['view_test:demo'] });
    const answer = await introspect(token, verify, storeOf(client()), client());
    expect(answer).toMatchObject({ active: true, scope: 'view_test:demo', client_id: 'c1', token_type: 'Bearer', sub: 'c1', iss: SETTINGS.issuer, aud: SETTINGS.audience });
    expect(answer.active && answer.exp - answer.iat!).toBe(SETTINGS.ttlSeconds);
  });

  it('is inactive for a revoked or vanished client, an invalid token, or an oversized one (not even verified)', async () => {
    const { token } = await issueAccessToken(keys, SETTINGS, { clientId: 'c1', scopes: ['view_test:demo'] });
    const introspector = { clientId: 'c2', scopes: ['introspect_oauth_tokens:demo'] };
    expect(await introspect(token, verify, storeOf(client({ revokedAt: '2024-01-02T00:00:00Z' })), introspector)).toEqual({ active: false });
    expect(await introspect(token, verify, storeOf(undefined), introspector)).toEqual({ active: false });
    expect(await introspect(`${token}x`, verify, storeOf(client()), client())).toEqual({ active: false });
    let verified = false;
    const spy = async () => ((verified = true), Promise.reject(new Error('never')));
    expect(await introspect('a'.repeat(MAX_TOKEN_LENGTH + 1), spy, storeOf(client()), client())).toEqual({ active: false });
    expect(verified).toBe(false);
  });

  it('a client introspecting its own token is not read again: its authentication read it (and refuses it revoked)', async () => {
    const { token } = await issueAccessToken(keys, SETTINGS, { clientId: 'c1', scopes: ['view_test:demo'] });
    let reads = 0;
    const store = { get: async () => ((reads += 1), client()) };
    expect(await introspect(token, verify, store, client())).toMatchObject({ active: true, client_id: 'c1' });
    expect(reads).toBe(0);
    expect(await introspect(token, verify, store, { clientId: 'c2', scopes: ['introspect_oauth_tokens:demo'] })).toMatchObject({ active: true });
    expect(reads).toBe(1);
  });

  it('RFC 7662 §2.1: only the token\'s own client, or a client with introspect_oauth_tokens on every project of the token', async () => {
    const { token } = await issueAccessToken(keys, SETTINGS, { clientId: 'c1', scopes: ['view_test:demo', 'manage_test:shop'] });
    const caller = (clientId: string, scopes: string[]) => ({ clientId, scopes });
    expect(await introspect(token, verify, storeOf(client()), caller('c2', ['manage_test:demo', 'manage_test:shop']))).toEqual({ active: false });
    expect(await introspect(token, verify, storeOf(client()), caller('c2', ['introspect_oauth_tokens:demo']))).toEqual({ active: false });
    expect(await introspect(token, verify, storeOf(client()), caller('c2', ['introspect_oauth_tokens:demo', 'introspect_oauth_tokens:shop']))).toMatchObject({ active: true });
    expect(mayIntrospect(caller('c2', ['introspect_oauth_tokens:demo']), { client_id: 'c1', scope: '' })).toBe(false);
    expect(mayIntrospect(caller('c1', []), { client_id: 'c1', scope: '' })).toBe(true);
  });
});

describe('keys that cannot be read are no verdict on the token', () => {
  // Nothing listens on port 1: the JWKS fetch fails as an endpoint that is down does.
  const unreachable = createTokenVerifier(undefined, { ...SETTINGS, jwksUri: 'https://127.0.0.1:1/oauth/jwks' });
  const caller = { clientId: 'c1', scopes: [], revokedAt: undefined } as unknown as ApiClient;

  it('the verifier throws VerificationKeysUnavailableError (503 in the HTTP layer), not a refusal of the token', async () => {
    const token = await signed({ scope: 'view_test:demo' });
    await expect(unreachable(token)).rejects.toBeInstanceOf(VerificationKeysUnavailableError);
    expect(toApiError(await unreachable(token).catch((error: unknown) => error))).toMatchObject({ statusCode: 503, errors: [{ code: 'OverCapacity' }] });
  });

  it('introspection fails instead of calling the token inactive', async () => {
    const token = await signed({ scope: 'view_test:demo' });
    await expect(introspect(token, unreachable, { get: async () => undefined }, caller)).rejects.toBeInstanceOf(VerificationKeysUnavailableError);
  });

  it('the verifier built from the JWKS address reads the keys there, not at the issuer', async () => {
    // The issuer's host does not resolve (a custom domain before DNS points at it); the keys' address is what is asked.
    const verifier = createTokenVerifier(undefined, { ...SETTINGS, issuer: 'https://api.not-yet-in-dns.invalid', jwksUri: 'https://127.0.0.1:1/oauth/jwks' });
    const error = await verifier(await signed({ iss: 'https://api.not-yet-in-dns.invalid', scope: 'view_test:demo' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VerificationKeysUnavailableError);
    expect(String((error as Error).cause)).toContain('127.0.0.1:1');
  });
});
