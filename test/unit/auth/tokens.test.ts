import { createHash, createPublicKey, generateKeyPairSync, verify as verifySignature } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  JwtExpiredError,
  JwtInvalidAudienceError,
  KidNotFoundInJwksError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureError,
  JwtNotBeforeError,
  JwtParseError,
} from 'aws-jwt-verify/error';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSigningKeys, toPublicJwk, type SigningKeys } from '../../../shared/auth/signing-keys.js';
import { createTokenVerifier } from '../../../shared/auth/token-verifier.js';
import { MAX_TOKEN_LENGTH, issueAccessToken } from '../../../shared/auth/tokens.js';

const SETTINGS = { issuer: 'https://auth.example.test', audience: 'generic-resource-service' };
const TTL = 3600;
const GRANT = { clientId: 'client-1', scopes: ['manage_test:demo', 'view_test:demo'] };

let dir: string;
let keys: FileSigningKeys;
let otherKeys: FileSigningKeys;
let pemFile: string;

function writePem(name: string): string {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const file = join(dir, name);
  writeFileSync(file, privateKey);
  return file;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'signing-keys-'));
  pemFile = writePem('current.pem');
  keys = new FileSigningKeys(pemFile);
  otherKeys = new FileSigningKeys(writePem('other.pem'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/** Signs an arbitrary header and payload with the given keys, as an attacker holding them (or a bug) could. */
async function craft(signer: SigningKeys, header: Record<string, unknown>, payload: Record<string, unknown>): Promise<string> {
  const input = `${encode(header)}.${encode(payload)}`;
  const { signature } = await signer.sign(Buffer.from(input));
  return `${input}.${signature.toString('base64url')}`;
}

/** Claims of a good token, now. */
async function goodClaims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: SETTINGS.issuer,
    sub: 'client-1',
    aud: SETTINGS.audience,
    iat: now,
    nbf: now,
    exp: now + 600,
    jti: 'b1f0a3c2-0000-4000-8000-000000000001',
    client_id: 'client-1',
    scope: 'manage_test:demo',
    ...overrides,
  };
}

async function goodHeader(overrides: Record<string, unknown> = {}) {
  const { keys: [jwk] } = await keys.publicJwks();
  return { alg: 'RS256', typ: 'JWT', kid: jwk!.kid, ...overrides };
}

describe('FileSigningKeys and the JWKS', () => {
  it('publishes one RSA signing key with alg RS256 and use sig', async () => {
    const { keys: published } = await keys.publicJwks();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    expect(typeof published[0]!.n).toBe('string');
  });

  it('publishes no private key members', async () => {
    const { keys: [jwk] } = await keys.publicJwks();
    expect(Object.keys(jwk!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']) expect(jwk).not.toHaveProperty(member);
  });

  it('uses the RFC 7638 thumbprint as kid', async () => {
    const { keys: [jwk] } = await keys.publicJwks();
    // RFC 7638 §3: the required members e, kty, n in lexicographic order, no whitespace, SHA-256, base64url.
    const canonical = `{"e":"${jwk!.e}","kty":"RSA","n":"${jwk!.n}"}`;
    expect(jwk!.kid).toBe(createHash('sha256').update(canonical).digest('base64url'));
    expect(jwk!.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('reproduces the RFC 7638 §3.1 example thumbprint', () => {
    const n =
      '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw';
    const publicKey = createPublicKey({ key: { kty: 'RSA', n, e: 'AQAB' }, format: 'jwk' });
    expect(toPublicJwk(publicKey).kid).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it('gives different keys different kids, and the same key the same kid', async () => {
    const [{ keys: [a] }, { keys: [b] }] = await Promise.all([keys.publicJwks(), otherKeys.publicJwks()]);
    expect(a!.kid).not.toBe(b!.kid);
    const { keys: [again] } = await new FileSigningKeys(pemFile).publicJwks();
    expect(again).toEqual(a);
  });

  it('signs with RSASSA-PKCS1-v1_5 SHA-256 that the published key verifies, naming its kid', async () => {
    const data = Buffer.from('header.payload');
    const { kid, signature } = await keys.sign(data);
    const { keys: [jwk] } = await keys.publicJwks();
    expect(kid).toBe(jwk!.kid);
    const publicKey = createPublicKey({ key: jwk!, format: 'jwk' });
    expect(verifySignature('sha256', data, publicKey, signature)).toBe(true);
    expect(verifySignature('sha256', Buffer.from('header.payloaD'), publicKey, signature)).toBe(false);
  });

  it('refuses to load a file that is not a private key', () => {
    const file = join(dir, 'not-a-key.pem');
    writeFileSync(file, 'not a key');
    expect(() => new FileSigningKeys(file)).toThrow();
  });
});

describe('issueAccessToken', () => {
  it('issues a three-part RS256 JWT whose header names the current kid', async () => {
    const { token } = await issueAccessToken(keys, { ...SETTINGS, ttlSeconds: TTL }, GRANT);
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    const { keys: [jwk] } = await keys.publicJwks();
    expect(decode(parts[0]!)).toEqual({ alg: 'RS256', typ: 'JWT', kid: jwk!.kid });
  });

  it('puts issuer, audience, client, scopes and a lifetime of ttlSeconds in the payload', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { token, expiresIn } = await issueAccessToken(keys, { ...SETTINGS, ttlSeconds: TTL }, GRANT);
    const after = Math.floor(Date.now() / 1000);
    const payload = decode(token.split('.')[1]!);
    expect(expiresIn).toBe(TTL);
    expect(payload).toMatchObject({
      iss: SETTINGS.issuer,
      aud: SETTINGS.audience,
      sub: 'client-1',
      client_id: 'client-1',
      scope: 'manage_test:demo view_test:demo',
    });
    const iat = payload.iat as number;
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(after);
    expect(payload.nbf).toBe(iat);
    expect(payload.exp).toBe(iat + TTL);
    expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('gives every token its own jti', async () => {
    const settings = { ...SETTINGS, ttlSeconds: TTL };
    const [a, b] = await Promise.all([issueAccessToken(keys, settings, GRANT), issueAccessToken(keys, settings, GRANT)]);
    expect(decode(a.token.split('.')[1]!).jti).not.toBe(decode(b.token.split('.')[1]!).jti);
  });

  it('stays well under MAX_TOKEN_LENGTH', async () => {
    const { token } = await issueAccessToken(keys, { ...SETTINGS, ttlSeconds: TTL }, GRANT);
    expect(token.length).toBeLessThan(2048);
    expect(token.length).toBeLessThan(MAX_TOKEN_LENGTH);
  });
});

describe('createTokenVerifier', () => {
  const issue = (grant = GRANT, ttlSeconds = TTL, signer: SigningKeys = keys) =>
    issueAccessToken(signer, { ...SETTINGS, ttlSeconds }, grant).then(({ token }) => token);

  it('accepts a token it issued and returns its claims', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const claims = await verify(await issue());
    expect(claims).toMatchObject({
      iss: SETTINGS.issuer,
      aud: SETTINGS.audience,
      client_id: 'client-1',
      scope: 'manage_test:demo view_test:demo',
    });
    expect(typeof claims.exp).toBe('number');
  });

  it('accepts a token with no scopes (scope is the empty string)', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    expect((await verify(await issue({ clientId: 'c', scopes: [] }))).scope).toBe('');
  });

  it('works with a plain-http issuer, as in local mode', async () => {
    const local = { issuer: 'http://localhost:3000', audience: 'local' };
    const { token } = await issueAccessToken(keys, { ...local, ttlSeconds: TTL }, GRANT);
    await expect(createTokenVerifier(keys, local)(token)).resolves.toMatchObject({ iss: 'http://localhost:3000' });
  });

  it('verifies many tokens with one verifier (keys are read once and cached)', async () => {
    let reads = 0;
    const counting: SigningKeys = { sign: (data) => keys.sign(data), publicJwks: () => (reads++, keys.publicJwks()) };
    const verify = createTokenVerifier(counting, SETTINGS);
    const tokens = await Promise.all([issue(), issue(), issue()]);
    const readsWhileIssuing = reads;
    for (const token of tokens) await verify(token);
    expect(reads - readsWhileIssuing).toBe(1);
  });

  it('refuses an expired token', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    await expect(verify(await issue(GRANT, -5))).rejects.toBeInstanceOf(JwtExpiredError);
  });

  it('refuses a token that is not yet valid (nbf in the future)', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const token = await craft(keys, await goodHeader(), await goodClaims({ nbf: Math.floor(Date.now() / 1000) + 300 }));
    await expect(verify(token)).rejects.toBeInstanceOf(JwtNotBeforeError);
  });

  it('refuses a token from another issuer', async () => {
    const verify = createTokenVerifier(keys, { ...SETTINGS, issuer: 'https://other.example.test' });
    await expect(verify(await issue())).rejects.toBeInstanceOf(JwtInvalidIssuerError);
  });

  it('refuses a token for another audience', async () => {
    const verify = createTokenVerifier(keys, { ...SETTINGS, audience: 'someone-else' });
    await expect(verify(await issue())).rejects.toBeInstanceOf(JwtInvalidAudienceError);
  });

  it('refuses a correctly signed token without exp', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const { exp: _exp, ...claims } = await goodClaims();
    await expect(verify(await craft(keys, await goodHeader(), claims))).rejects.toThrow('The token has no expiry.');
  });

  it('accepts the same crafted claims when exp is present (the craft helper itself is sound)', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    await expect(verify(await craft(keys, await goodHeader(), await goodClaims()))).resolves.toMatchObject({ client_id: 'client-1' });
  });

  it.each(['client_id', 'scope'])('refuses a correctly signed token without %s', async (claim) => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const claims: Record<string, unknown> = await goodClaims();
    delete claims[claim];
    await expect(verify(await craft(keys, await goodHeader(), claims))).rejects.toThrow('The token lacks client_id or scope.');
  });

  it('refuses a token whose scope is not a string', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const token = await craft(keys, await goodHeader(), await goodClaims({ scope: ['manage_test:demo'] }));
    await expect(verify(token)).rejects.toThrow();
  });

  it('refuses a token whose payload was tampered with after signing', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const [header, payload, signature] = (await issue({ clientId: 'client-1', scopes: ['view_test:demo'] })).split('.');
    const escalated = encode({ ...decode(payload!), scope: 'manage_test:demo' });
    await expect(verify(`${header}.${escalated}.${signature}`)).rejects.toBeInstanceOf(JwtInvalidSignatureError);
  });

  it('refuses a token whose signature was altered', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const [header, payload, signature] = (await issue()).split('.');
    const bytes = Buffer.from(signature!, 'base64url');
    bytes[0] = bytes[0]! ^ 0xff;
    await expect(verify(`${header}.${payload}.${bytes.toString('base64url')}`)).rejects.toBeInstanceOf(JwtInvalidSignatureError);
  });

  it('refuses a token signed by another key that claims our kid', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const token = await craft(otherKeys, await goodHeader(), await goodClaims());
    await expect(verify(token)).rejects.toBeInstanceOf(JwtInvalidSignatureError);
  });

  it('refuses a token signed by a key it does not publish', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    await expect(verify(await issue(GRANT, TTL, otherKeys))).rejects.toBeInstanceOf(KidNotFoundInJwksError);
  });

  it('refuses a token without a signature and an alg of none', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const unsigned = `${encode(await goodHeader({ alg: 'none' }))}.${encode(await goodClaims())}.`;
    await expect(verify(unsigned)).rejects.toThrow();
  });

  it('refuses a token that declares HS256 (no algorithm confusion with the public key)', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const token = await craft(keys, await goodHeader({ alg: 'HS256' }), await goodClaims());
    await expect(verify(token)).rejects.toThrow();
  });

  it.each(['', 'abc', 'a.b', 'a.b.c', 'x.y.z.w'])('refuses the malformed token %j', async (token) => {
    const verify = createTokenVerifier(keys, SETTINGS);
    await expect(verify(token)).rejects.toBeInstanceOf(Error);
  });

  it('refuses a token whose header is not JSON with a parse error', async () => {
    const verify = createTokenVerifier(keys, SETTINGS);
    const [, payload, signature] = (await issue()).split('.');
    await expect(verify(`${Buffer.from('{not json').toString('base64url')}.${payload}.${signature}`)).rejects.toBeInstanceOf(JwtParseError);
  });

  it('follows key rotation: a verifier built before the rotation accepts tokens of the new key', async () => {
    let current: SigningKeys = keys;
    const rotating: SigningKeys = { sign: (data) => current.sign(data), publicJwks: () => current.publicJwks() };
    const verify = createTokenVerifier(rotating, SETTINGS);
    await verify(await issue(GRANT, TTL, rotating)); // caches the first JWKS
    current = otherKeys;
    await expect(verify(await issue(GRANT, TTL, rotating))).resolves.toMatchObject({ client_id: 'client-1' });
  });
});
