import { describe, expect, it } from 'vitest';
import { call, tokenFor, uniqueKey } from './api-client';

/**
 * Lambda returns at most 6 MB, and API Gateway answers a larger result with its own 500: a page of
 * large resources is sent gzip-compressed to clients that accept it, and refused with advice to
 * the others (shared/http/response-size.ts). A project of their own keeps 7 MB out of the others' reads.
 */
describe('a page larger than a Lambda can return', () => {
  /** 30 resources of ≈ 232 KB each (58 strings of 4,000 characters): a page of ≈ 7 MB. */
  async function createLargeResources(): Promise<string[]> {
    const token = await tokenFor();
    const keys = Array.from({ length: 30 }, () => uniqueKey('large'));
    for (const key of keys) {
      const arrayOfStringExample = Array.from({ length: 58 }, (_, index) => `${key}-${index}-`.padEnd(4_000, 'x'));
      const created = await call('POST', '/large-answers/resource', { token, json: { key, objectTypeProperty: { arrayOfStringExample } } });
      expect(created.status).toBe(201);
    }
    return keys;
  }

  it('is sent gzip-compressed when the client accepts gzip, and refused with 400 advice when not', async () => {
    const token = await tokenFor();
    const keys = await createLargeResources();
    const where = encodeURIComponent(`key in (${keys.map((key) => `"${key}"`).join(', ')})`);
    const path = `/large-answers/resource?where=${where}&limit=30&withTotal=false`;

    // fetch asks for gzip and decompresses, as the SDK's HTTP clients do.
    const compressed = await call('GET', path, { token, headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(compressed.body.count).toBe(30);
    expect(compressed.body.results.map((resource: { key: string }) => resource.key).sort()).toEqual([...keys].sort());
    expect(compressed.body.results[0].objectTypeProperty.arrayOfStringExample).toHaveLength(58);

    const refused = await call('GET', path, { token, headers: { 'accept-encoding': 'identity' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('InvalidInput');
    // Refused while the page is read, before it outgrows the room: the advice names a limit that fits.
    expect(refused.body.message).toMatch(/more than a response can carry: ask for fewer results \(limit=\d+ or less\), or send Accept-Encoding: gzip\.$/);
    expect(refused.headers.get('x-correlation-id')).toBeTruthy();
    const fitting = Number(/limit=(\d+)/.exec(refused.body.message)![1]);
    expect(fitting).toBeGreaterThan(20);
    const advised = await call('GET', path.replace('limit=30', `limit=${fitting}`), { token, headers: { 'accept-encoding': 'identity' } });
    expect(advised.status).toBe(200);
    expect(advised.body.count).toBe(fitting);

    // Pages that fit are not compressed.
    const small = await call('GET', `/large-answers/resource?where=${where}&limit=2&withTotal=false`, { token, headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.body.count).toBe(2);
  });
});
