import { describe, expect, it } from 'vitest';
import { DECOY_HASH, generateSecret, hashSecret, verifySecret } from '../../../shared/auth/client-secrets.js';

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

describe('hashSecret', () => {
  it('stores scrypt$N$r$p$salt$hash with N=16384, r=8, p=1, a 16-byte salt and a 32-byte hash', async () => {
    const stored = await hashSecret('s3cret');
    const [scheme, N, r, p, salt, hash, ...rest] = stored.split('$');
    expect(rest).toEqual([]);
    expect([scheme, N, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64url')).toHaveLength(32);
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
    const hash = Buffer.from(parts[5]!, 'base64url');
    hash[hash.length - 1]! ^= 1;
    parts[5] = hash.toString('base64url');
    expect(await verifySecret('secret', parts.join('$'))).toBe(false);
  });

  it('refuses the right secret against another salt', async () => {
    const stored = await hashSecret('secret');
    const parts = stored.split('$');
    parts[4] = Buffer.alloc(16, 7).toString('base64url');
    expect(await verifySecret('secret', parts.join('$'))).toBe(false);
  });

  it('refuses a hash truncated to fewer bytes (length mismatch, no exception)', async () => {
    const stored = await hashSecret('secret');
    const parts = stored.split('$');
    parts[5] = parts[5]!.slice(0, 20);
    expect(await verifySecret('secret', parts.join('$'))).toBe(false);
  });

  it.each([
    ['the empty string', ''],
    ['a plain-text secret', 'secret'],
    ['another scheme', 'bcrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a missing salt', 'scrypt$16384$8$1$$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a missing hash', 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$'],
    ['too few parts', 'scrypt$16384$8$1'],
    ['only the scheme', 'scrypt'],
  ])('is false, without throwing, for a stored hash with %s', async (_what, stored) => {
    await expect(verifySecret('secret', stored)).resolves.toBe(false);
  });

  it('refuses the scheme name spelled in another case', async () => {
    const stored = await hashSecret('secret');
    expect(await verifySecret('secret', stored.replace(/^scrypt/, 'SCRYPT'))).toBe(false);
  });
});

describe('DECOY_HASH', () => {
  it('has the shape and parameters of a real hash, so checking it costs the same', async () => {
    const real = (await hashSecret('x')).split('$');
    const decoy = DECOY_HASH.split('$');
    expect(decoy).toHaveLength(real.length);
    expect(decoy.slice(0, 4)).toEqual(real.slice(0, 4));
    expect(decoy[4]).toHaveLength(real[4]!.length);
    expect(decoy[5]).toHaveLength(real[5]!.length);
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
