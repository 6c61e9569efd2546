import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  generateSecret,
  parseSignatureHeader,
  signatureHeader,
  signedText,
  verifySignature,
} from '../../../shared/domain/extensions/signing.js';

const secret = 'gres_test-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const request = { method: 'POST', pathAndQuery: '/hooks/cart?x=1&y=a%20b', body: '{"cartId":"c-1"}' };
const t = 1_700_000_000;

describe('extension request signatures', () => {
  it('is HMAC-SHA256, hex, over timestamp, method, path with query and body joined by line feeds', () => {
    const expected = createHmac('sha256', secret).update(`${t}\nPOST\n/hooks/cart?x=1&y=a%20b\n{"cartId":"c-1"}`).digest('hex');
    expect(signedText(t, request)).toBe(`${t}\nPOST\n/hooks/cart?x=1&y=a%20b\n{"cartId":"c-1"}`);
    expect(computeSignature(secret, t, request)).toBe(expected);
    expect(signatureHeader(secret, request, t)).toBe(`t=${t},v1=${expected}`);
  });

  it('upper-cases the method and signs an absent body as the empty string', () => {
    expect(computeSignature(secret, t, { method: 'get', pathAndQuery: '/a', body: '' })).toBe(
      createHmac('sha256', secret).update(`${t}\nGET\n/a\n`).digest('hex'),
    );
  });

  it('verifies what it signs, within the tolerance', () => {
    const header = signatureHeader(secret, request, t);
    expect(verifySignature(secret, header, request, { now: t })).toEqual({ valid: true });
    expect(verifySignature(secret, header, request, { now: t + 300 })).toEqual({ valid: true });
    expect(verifySignature(secret, header, request, { now: t - 300 })).toEqual({ valid: true });
    expect(verifySignature(secret, header, request, { now: t + 301 })).toEqual({ valid: false, reason: 'expired' });
    expect(verifySignature(secret, header, request, { now: t + 3600, toleranceSeconds: 7200 })).toEqual({ valid: true });
  });

  it('refuses a changed method, path, query, body, timestamp or secret', () => {
    const header = signatureHeader(secret, request, t);
    const mismatch = { valid: false, reason: 'mismatch' };
    expect(verifySignature(secret, header, { ...request, method: 'GET' }, { now: t })).toEqual(mismatch);
    expect(verifySignature(secret, header, { ...request, pathAndQuery: '/hooks/other?x=1&y=a%20b' }, { now: t })).toEqual(mismatch);
    expect(verifySignature(secret, header, { ...request, pathAndQuery: '/hooks/cart?x=2&y=a%20b' }, { now: t })).toEqual(mismatch);
    expect(verifySignature(secret, header, { ...request, body: '{"cartId":"c-2"}' }, { now: t })).toEqual(mismatch);
    expect(verifySignature(`${secret}x`, header, request, { now: t })).toEqual(mismatch);
    const shifted = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(verifySignature(secret, shifted, request, { now: t })).toEqual(mismatch);
  });

  it('refuses malformed headers', () => {
    const malformed = { valid: false, reason: 'malformed' };
    for (const header of [undefined, '', 'v1=abc', `t=${t}`, `t=${t},v1=zz`, `t=abc,v1=${'0'.repeat(64)}`, `t=${t},t=${t},v1=${'0'.repeat(64)}`, 'garbage']) {
      expect(verifySignature(secret, header, request, { now: t })).toEqual(malformed);
    }
  });

  it('accepts any one of several v1 signatures and ignores unknown schemes', () => {
    const good = computeSignature(secret, t, request);
    const header = `t=${t},v0=whatever,v1=${'0'.repeat(64)},v1=${good}`;
    expect(parseSignatureHeader(header)).toEqual({ timestamp: t, signatures: ['0'.repeat(64), good] });
    expect(verifySignature(secret, header, request, { now: t })).toEqual({ valid: true });
  });

  it('generates distinct, long secrets', () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^gres_[A-Za-z0-9_-]{43}$/);
  });
});
