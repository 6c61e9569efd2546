import { createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Client secrets are stored hashed — `hmac-sha256$salt$hash`, HMAC-SHA-256 of the secret keyed
 * with a 16-byte random salt — and compared in constant time: a leaked table does not leak
 * secrets, and timing does not hint at them.
 *
 * A fast hash is enough because the service makes every secret (`generateSecret`: 32 random
 * bytes, 256 bits). A slow KDF such as scrypt protects secrets people choose, which an attacker
 * holding the table could guess a few billion times; guessing one of 2^256 values is beyond any
 * number of hashes per second, so scrypt's ≈ 45 ms per check (the token functions' whole first
 * call) bought nothing. Records written before, `scrypt$N$r$p$salt$hash`, still verify: clients
 * keep their secrets, and a new client (`npm run client -- create`) gets the fast scheme
 * (docs/security.md, "Client secrets").
 */
const SCHEME = 'hmac-sha256';
const SALT_BYTES = 16;

const hmac = (secret: string, salt: Buffer) => createHmac('sha256', salt).update(secret, 'utf8').digest();

/** Records of the scheme used before: scrypt, N=2^14, r=8, p=1, 32-byte keys. */
const LEGACY_SCHEME = 'scrypt';
const SCRYPT_KEY_LENGTH = 32;

const derive = (secret: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, salt, SCRYPT_KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );

export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Every client id: 1–128 characters that HTTP Basic carries unencoded (RFC 3986's unreserved).
 * Generated ids (`generateClientId`, 24 characters) and given ones (local mode's LOCAL_CLIENT_ID,
 * test clients) are of it; the CLI names clients by it, and client authentication looks no other
 * id up — one far longer would pass the table's 2048-byte partition key (a ValidationException).
 */
const CLIENT_ID = /^[A-Za-z0-9._~-]{1,128}$/;

export const isClientId = (clientId: string): boolean => CLIENT_ID.test(clientId);

/**
 * A new client id: 18 random bytes, base64url. Never one that begins with `-`, which a command
 * line takes for an option (`npm run client -- revoke -x…` would refuse it): such a draw is
 * drawn again (1 in 64).
 */
export function generateClientId(): string {
  for (;;) {
    const clientId = randomBytes(18).toString('base64url');
    if (!clientId.startsWith('-')) return clientId;
  }
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return [SCHEME, salt.toString('base64url'), hmac(secret, salt).toString('base64url')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const scheme = stored.slice(0, stored.indexOf('$'));
  if (scheme === SCHEME) return verifyHmac(secret, stored);
  if (scheme === LEGACY_SCHEME) return verifyScrypt(secret, stored);
  return false;
}

function verifyHmac(secret: string, stored: string): boolean {
  const [, salt, hash, ...rest] = stored.split('$');
  if (!salt || !hash || rest.length > 0) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = hmac(secret, Buffer.from(salt, 'base64url'));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

async function verifyScrypt(secret: string, stored: string): Promise<boolean> {
  const [, N, r, p, salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  try {
    const actual = await derive(secret, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false; // a corrupt stored hash (bad scrypt parameters) verifies nothing
  }
}

/** A hash to compare against when the client does not exist, so both paths take equal time. */
export const DECOY_HASH = 'hmac-sha256$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
