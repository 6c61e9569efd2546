import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/http/errors.js';
import { LAMBDA_RESPONSE_LIMIT_BYTES, fitForLambda } from '../../../shared/http/response-size.js';

const answer = (body: string) => ({ statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body });
/** A JSON page of `count` resources, each holding `strings` strings made by `text`. */
const page = (count: number, strings: number, text: (index: number) => string) =>
  JSON.stringify({ results: Array.from({ length: count }, (_, resource) => ({ id: String(resource), values: Array.from({ length: strings }, (__, index) => text(index)) })) });
const compressible = page(30, 58, (index) => `${index}`.padEnd(4000, 'a')); // ≈ 7 MB
const incompressible = page(30, 58, () => randomBytes(3000).toString('base64')); // ≈ 7 MB of random text

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('fitForLambda() returned the answer');
}

describe('fitForLambda: answers Lambda can return (6 MB as JSON, body escaped)', () => {
  it('returns an answer that fits as it is, whatever the client accepts', () => {
    const small = answer(page(500, 2, () => 'value'));
    expect(fitForLambda(small, undefined)).toBe(small);
    expect(fitForLambda(small, 'gzip')).toBe(small);
  });

  it('gzips a larger answer when the client accepts gzip, base64-encoded as API Gateway wants binary bodies', () => {
    expect(Buffer.byteLength(compressible)).toBeGreaterThan(LAMBDA_RESPONSE_LIMIT_BYTES);
    const fitted = fitForLambda(answer(compressible), 'gzip, deflate, br');
    expect(fitted).toMatchObject({ statusCode: 200, isBase64Encoded: true, headers: { 'content-encoding': 'gzip', vary: 'accept-encoding', 'content-type': 'application/json; charset=utf-8' } });
    expect(JSON.stringify(fitted).length).toBeLessThan(LAMBDA_RESPONSE_LIMIT_BYTES);
    expect(gunzipSync(Buffer.from(fitted.body!, 'base64')).toString('utf8')).toBe(compressible);
  });

  it('counts the escaping of the body inside the result: quotes take two bytes there', () => {
    // 3.9 MB of JSON text, two thirds of it quotes, is 6.5 MB once escaped in the result.
    const quotes = JSON.stringify(Array.from({ length: 1_300_000 }, () => ''));
    expect(Buffer.byteLength(quotes)).toBeLessThan(LAMBDA_RESPONSE_LIMIT_BYTES);
    expect(fitForLambda(answer(quotes), 'gzip').isBase64Encoded).toBe(true);
  });

  it('refuses with 400 InvalidInput and advice when the client does not accept gzip', () => {
    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0', 'br', 'gzip ; q=0.0']) {
      const error = refusal(() => fitForLambda(answer(compressible), acceptEncoding));
      expect(error.statusCode, acceptEncoding).toBe(400);
      expect(error.errors[0].code).toBe('InvalidInput');
      expect(error.errors[0].message).toMatch(/^This answer would take 6\.\d MB, more than the 6\.0 MB a response can carry: ask for fewer results \(limit\), or send Accept-Encoding: gzip\.$/);
    }
  });

  it('takes gzip however the client says it (q-values, *, case)', () => {
    for (const acceptEncoding of ['GZIP', 'br;q=1, gzip;q=0.5', '*', 'x-gzip']) {
      expect(fitForLambda(answer(compressible), acceptEncoding).isBase64Encoded, acceptEncoding).toBe(true);
    }
  });

  it('refuses what does not fit even compressed', () => {
    const error = refusal(() => fitForLambda(answer(incompressible), 'gzip'));
    expect(error.errors[0].message).toMatch(/even gzip-compressed: ask for fewer results \(limit\)\.$/);
  });
});
