import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { DECOY_HASH, generateClientId, generateSecret, hashSecret, isClientId, verifySecret } from '../../../shared/auth/client-secrets.js';
import { parseClientCliArgs } from '../../../scripts/client-cli-args.js';

/** A record written by the scheme used before (scrypt N=16384, r=8, p=1): such clients keep working. */
const LEGACY_SECRET = 'legacy secret ✓';
const LEGACY_RECORD = 'scrypt$16384$8$1$bGVnYWN5LXNhbHQtMTZieQ$M9ZSkAvUT9KzzAYpwgNjvZWsdn2YcxSljD0l_tyAhBc';

describe('generateSecret', () => {
  it('returns 32 random bytes as base64url (43 characters, no padding)', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
  });

  it('returns a different secret each time', () => {
    const secrets = new Set(Array.from({ length: 20 }, generateSecret));
    expect(secrets.size).toBe(20);
  });
});

describe('isClientId', () => {
  it('holds generated ids and given ones (local mode, tests), up to 128 characters that HTTP Basic carries unencoded', () => {
    for (const id of [generateClientId(), 'local-dev-client', 'test-client', 'bench-client', 'a', 'a.b_c~d-e', 'x'.repeat(128)]) expect(isClientId(id), id).toBe(true);
    for (const id of ['', 'x'.repeat(129), 'x'.repeat(2100), 'my client', 'a@b', 'a:b', 'a%20b', 'é']) expect(isClientId(id), id).toBe(false);
  });
});

describe('generateClientId', () => {
  it('returns 18 random bytes as base64url, never beginning with "-", so the CLI takes it as an argument, not an option', () => {
    // One draw in 64 began with "-" before (found by CI: `npm run client -- revoke -y…` refused as an unknown option).
    const ids = Array.from({ length: 2_000 }, generateClientId);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{23}$/);
      expect(Buffer.from(id, 'base64url')).toHaveLength(18);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(parseClientCliArgs(['revoke', ids[0]!])).toMatchObject({ command: 'revoke', clientId: ids[0] });
    // An id of before, beginning with "-", is given after "--", as the usage says.
    expect(parseClientCliArgs(['revoke', '--', '-xOld'])).toMatchObject({ command: 'revoke', clientId: '-xOld' });
  });
});

describe('hashSecret', () => {
  it('stores hmac-sha256$salt$hash: HMAC-SHA-256 of the secret keyed with a 16-byte random salt', async () => {
    const stored = await hashSecret('s3cret');
    const [scheme, salt, hash, ...rest] = stored.split('$');
    expect(rest).toEqual([]);
    expect(scheme).toBe('hmac-sha256');
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(hash).toBe(createHmac('sha256', Buffer.from(salt!, 'base64url')).update('s3cret').digest('base64url'));
  });

  it('does not contain the secret', async () => {
    const secret = generateSecret();
    const stored = await hashSecret(secret);
    expect(stored).not.toContain(secret);
  });

  it('salts: the same secret hashes differently each time, and both verify', async () => {
    const [a, b] = await Promise.all([hashSecret('same'), hashSecret('same')]);
    expect(a).not.toBe(b);
    expect(await verifySecret('same', a)).toBe(true);
    expect(await verifySecret('same', b)).toBe(true);
  });
});

describe('verifySecret', () => {
  it('round-trips: a hashed secret verifies', async () => {
    const secret = generateSecret();
    expect(await verifySecret(secret, await hashSecret(secret))).toBe(true);
  });

  it('round-trips secrets with non-ASCII characters and the empty secret', async () => {
    for (const secret of ['pässwörd ✓', '']) {
      expect(await verifySecret(secret, await hashSecret(secret)), JSON.stringify(secret)).toBe(true);
    }
  });

  it('refuses a wrong secret', async () => {
    const stored = await hashSecret('right-secret');
    expect(await verifySecret('wrong-secret', stored)).toBe(false);
    expect(await verifySecret('right-secreT', stored)).toBe(false);
    expect(await verifySecret('right-secret ', stored)).toBe(false);
    expect(await verifySecret('', stored)).toBe(false);
  });

  it('refuses the right secret against a hash whose last byte was altered', async () => {
    const stored = await hashSecret('secret');
    const parts = stored.split('$');
    const hash = Buffer.from(parts[2]!, 'base64url');
    hash[hash.length - 1]! ^= 1;
    parts[2] = hash.toString('base64url');
    expect(await verifySecret('secret', parts.join('$'))).toBe(false);
  });

  it('refuses the right secret against another salt', async () => {
    const stored = await hashSecret('secret');
    const parts = stored.split('$');
    parts[1] = Buffer.alloc(16, 7).toString('base64url');
    expect(await verifySecret('secret', parts.join('$'))).toBe(false);
  });

  it('refuses a hash truncated to fewer bytes (length mismatch, no exception)', async () => {
    const stored = await hashSecret('secret');
    const parts = stored.split('$');
    parts[2] = parts[2]!.slice(0, 20);
    expect(await verifySecret('secret', parts.join('$'))).toBe(false);
  });

  it('refuses a record with a part added', async () => {
    expect(await verifySecret('secret', `${await hashSecret('secret')}$x`)).toBe(false);
  });

  it.each([
    ['the empty string', ''],
    ['a plain-text secret', 'secret'],
    ['another scheme', 'bcrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['an unsalted SHA-256', 'sha256$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a missing salt', 'hmac-sha256$$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a missing hash', 'hmac-sha256$AAAAAAAAAAAAAAAAAAAAAA$'],
    ['only the scheme', 'hmac-sha256'],
    ['a missing scrypt salt', 'scrypt$16384$8$1$$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a missing scrypt hash', 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$'],
    ['too few scrypt parts', 'scrypt$16384$8$1'],
    ['only the scrypt scheme', 'scrypt'],
  ])('is false, without throwing, for a stored hash with %s', async (_what, stored) => {
    await expect(verifySecret('secret', stored)).resolves.toBe(false);
  });

  it('refuses the scheme name spelled in another case', async () => {
    const stored = await hashSecret('secret');
    expect(await verifySecret('secret', stored.replace(/^hmac-sha256/, 'HMAC-SHA256'))).toBe(false);
    expect(await verifySecret(LEGACY_SECRET, LEGACY_RECORD.replace(/^scrypt/, 'SCRYPT'))).toBe(false);
  });
});

describe('verifySecret of records of the scheme used before (scrypt)', () => {
  it('verifies the right secret: clients created before keep working', async () => {
    expect(await verifySecret(LEGACY_SECRET, LEGACY_RECORD)).toBe(true);
  });

  it('refuses a wrong secret, another salt and an altered hash', async () => {
    expect(await verifySecret('legacy secret', LEGACY_RECORD)).toBe(false);
    const parts = LEGACY_RECORD.split('$');
    expect(await verifySecret(LEGACY_SECRET, [...parts.slice(0, 4), Buffer.alloc(16, 7).toString('base64url'), parts[5]].join('$'))).toBe(false);
    const hash = Buffer.from(parts[5]!, 'base64url');
    hash[0]! ^= 1;
    expect(await verifySecret(LEGACY_SECRET, [...parts.slice(0, 5), hash.toString('base64url')].join('$'))).toBe(false);
  });
});

describe('DECOY_HASH', () => {
  it('has the scheme and shape of a new record, so checking it costs the same', async () => {
    const real = (await hashSecret('x')).split('$');
    const decoy = DECOY_HASH.split('$');
    expect(decoy).toHaveLength(real.length);
    expect(decoy[0]).toBe(real[0]);
    expect(decoy[1]).toHaveLength(real[1]!.length);
    expect(decoy[2]).toHaveLength(real[2]!.length);
  });

  it.each(['', 'secret', 'AAAAAAAAAAAAAAAAAAAAAA', '\u0000'])('never verifies, not even for %j', async (secret) => {
    await expect(verifySecret(secret, DECOY_HASH)).resolves.toBe(false);
  });

  it('never verifies a freshly generated secret', async () => {
    expect(await verifySecret(generateSecret(), DECOY_HASH)).toBe(false);
  });
});

describe('verifySecret with corrupt scrypt parameters', () => {
  it.each(['scrypt$abc$8$1$AAAA$AAAA', 'scrypt$1000$8$1$AAAA$AAAA', 'scrypt$1073741824$8$1$AAAA$AAAA'])('answers false for %s', async (stored) => {
    await expect(verifySecret('x', stored)).resolves.toBe(false);
  });
});
