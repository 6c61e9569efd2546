import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../shared/domain/errors';
import { toApiError } from '../../../shared/http/errors';
import { QueryParameters } from '../../../shared/http/query-parameters';
import { checkMagicNumber, declaredImageType, dimensionsOf, imageObjectKey, mediaTypeOf, uploadTarget } from '../../../shared/services/image-checks';
import { MAX_IMAGE_SIDE, type ImageContentType } from '../../../shared/domain/images/image-file';
import { pngDeclaring } from '../../support/images';
import { GIF_1X1, jpeg, png } from './fakes';

/**
 * `bytes` in a small Buffer of Node's shared allocation pool, the pool's next bytes set to 0x11:
 * a reader that reads past the Buffer's end finds non-zero "dimensions" there (4369 = 0x1111).
 */
function pooled(bytes: Uint8Array): Buffer {
  for (;;) {
    const buffer = Buffer.allocUnsafe(bytes.length);
    const after = buffer.byteOffset + buffer.length;
    if (after + 16 > buffer.buffer.byteLength) continue; // at the pool's end: the next one starts a fresh pool
    buffer.set(bytes);
    new Uint8Array(buffer.buffer, after, 16).fill(0x11);
    return buffer;
  }
}

/** The refusal `run` throws: its answer's status and first error code. */
function refusal(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const answer = toApiError(error);
    return { status: answer.statusCode, code: answer.errors[0].code, message: answer.message };
  }
  throw new Error('expected a refusal');
}

describe('the checks both image uploads share', () => {
  it('takes image/jpeg, image/png and image/gif as declared types, parameters and case aside; anything else is 415', () => {
    expect(declaredImageType('image/png')).toBe('image/png');
    expect(declaredImageType('IMAGE/JPEG; charset=binary')).toBe('image/jpeg');
    expect(declaredImageType(' image/gif ')).toBe('image/gif');
    for (const declared of ['image/webp', 'image/svg+xml', 'application/octet-stream', '', undefined]) {
      expect(refusal(() => declaredImageType(declared))).toMatchObject({ status: 415, code: 'UnsupportedMediaType' });
    }
    expect(refusal(() => declaredImageType('image/webp')).message).toBe('Expected content type image/jpeg, image/png or image/gif, received image/webp.');
    expect(mediaTypeOf(undefined)).toBe('');
  });

  it('needs the magic number of the declared type in the first bytes: another type, or none, is 415', () => {
    expect(() => checkMagicNumber('image/png', png(1, 1))).not.toThrow();
    expect(() => checkMagicNumber('image/png', png(1, 1).subarray(0, 8))).not.toThrow();
    expect(() => checkMagicNumber('image/jpeg', jpeg(1, 1))).not.toThrow();
    expect(refusal(() => checkMagicNumber('image/png', GIF_1X1))).toMatchObject({ status: 415, message: 'Expected content type image/png, received bytes of image/gif.' });
    expect(refusal(() => checkMagicNumber('image/gif', Buffer.from('GIF')))).toMatchObject({ status: 415, message: expect.stringContaining('no supported image type') });
    expect(refusal(() => checkMagicNumber('image/jpeg', Buffer.alloc(0))).status).toBe(415);
  });

  it('reads the dimensions with image-size, from a prefix when it holds them; unreadable bytes are 400', () => {
    expect(dimensionsOf('image/png', png(3, 2), 'The body')).toEqual({ w: 3, h: 2 });
    expect(dimensionsOf('image/png', png(300, 200).subarray(0, 64), 'The body')).toEqual({ w: 300, h: 200 });
    expect(dimensionsOf('image/gif', GIF_1X1, 'The body')).toEqual({ w: 1, h: 1 });
    expect(dimensionsOf('image/jpeg', jpeg(640, 480), 'The body')).toEqual({ w: 640, h: 480 });
    // A JPEG whose frame header lies beyond the prefix: the prefix alone does not say.
    const late = jpeg(640, 480, 600_000);
    expect(refusal(() => dimensionsOf('image/jpeg', late.subarray(0, 512 * 1024), 'The uploaded object'))).toMatchObject({
      status: 400,
      code: 'InvalidInput',
      message: 'The uploaded object is not a readable image/jpeg image.',
    });
    expect(dimensionsOf('image/jpeg', late, 'The uploaded object')).toEqual({ w: 640, h: 480 });
    const corrupt = Buffer.concat([png(1, 1).subarray(0, 8), Buffer.from('not a png at all')]);
    expect(refusal(() => dimensionsOf('image/png', corrupt, 'The body'))).toMatchObject({ status: 400, message: 'The body is not a readable image/png image.' });
    // The declared type's reader reads them: another type's bytes are not read as that type.
    expect(refusal(() => dimensionsOf('image/png', GIF_1X1, 'The body'))).toMatchObject({ status: 400, message: 'The body is not a readable image/png image.' });
    expect(refusal(() => dimensionsOf('image/jpeg', png(3, 2), 'The body')).status).toBe(400);
  });

  it('refuses truncated headers in small Buffers of Node\'s shared pool, never reading the bytes that follow them (400)', () => {
    const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')]);
    const truncated: [ImageContentType, Buffer][] = [
      // SOI, APP0, then only the first 6 bytes of SOF0: the height's second byte and the width are missing.
      ['image/jpeg', Buffer.from([0xff, 0xd8, ...app0, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00])],
      // The signature alone: the dimensions would be bytes 6-9.
      ['image/gif', Buffer.from('GIF89a', 'latin1')],
      // Cut after the IHDR chunk's name: the dimensions would be bytes 16-23.
      ['image/png', png(3, 2).subarray(0, 16)],
    ];
    for (const [type, bytes] of truncated) {
      const body = pooled(bytes);
      expect(body.buffer.byteLength, 'a view into the pool').toBeGreaterThan(body.length);
      expect(refusal(() => dimensionsOf(type, body, 'The body')), type).toMatchObject({
        status: 400,
        code: 'InvalidInput',
        message: `The body is not a readable ${type} image.`,
      });
      // As a request body arrives (base64-decoded into the pool), whatever the pool holds after it.
      expect(refusal(() => dimensionsOf(type, Buffer.from(bytes.toString('base64'), 'base64'), 'The body')).status, type).toBe(400);
    }
    // Whole images in the pool are read as before.
    expect(dimensionsOf('image/gif', pooled(GIF_1X1), 'The body')).toEqual({ w: 1, h: 1 });
    expect(dimensionsOf('image/jpeg', pooled(jpeg(640, 480)), 'The body')).toEqual({ w: 640, h: 480 });
  });

  it(`refuses declared dimensions beyond ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} with 400 naming the limit (a PNG header may declare 2^31 − 1)`, () => {
    expect(refusal(() => dimensionsOf('image/png', pngDeclaring(2147483647, 2147483647), 'The body'))).toMatchObject({
      status: 400,
      code: 'InvalidInput',
      message: `The body is 2147483647×2147483647 pixels; images may be at most ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} pixels.`,
    });
    expect(refusal(() => dimensionsOf('image/png', pngDeclaring(MAX_IMAGE_SIDE + 1, 1), 'The body')).status).toBe(400);
    expect(dimensionsOf('image/png', pngDeclaring(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE), 'The body')).toEqual({ w: MAX_IMAGE_SIDE, h: MAX_IMAGE_SIDE });
  });

  it('chooses the variant by sku and/or number, with the same refusals on both paths', () => {
    expect(uploadTarget(new QueryParameters('sku=a-1'), 'image/png')).toEqual({ selector: { sku: 'a-1' }, filename: 'img', publish: false });
    expect(uploadTarget(new QueryParameters('variant=7&sku=b&staged=false&filename=front.png'), 'image/png')).toEqual({
      selector: { sku: 'b', id: 7 },
      filename: 'front.png',
      publish: true,
    });
    expect(uploadTarget(new QueryParameters('variant=7&staged=true'), 'image/png').publish).toBe(false);
    expect(uploadTarget(new QueryParameters('variant=1&filename=..%2F..%2Fetc%2Fpasswd'), 'image/png').filename).toBe('etc-passwd');
    expect(refusal(() => uploadTarget(new QueryParameters(''), 'image/png'))).toMatchObject({ status: 400, code: 'InvalidInput', message: expect.stringContaining('sku or variant') });
    expect(refusal(() => uploadTarget(new QueryParameters('sku=a%20b'), 'image/png')).message).toBe('The sku must be 1 to 256 characters without spaces.');
    expect(refusal(() => uploadTarget(new QueryParameters(`sku=${'s'.repeat(257)}`), 'image/png')).status).toBe(400);
    expect(refusal(() => uploadTarget(new QueryParameters('variant=0'), 'image/png')).status).toBe(400);
    expect(refusal(() => uploadTarget(new QueryParameters('variant=1.5'), 'image/png')).status).toBe(400);
    expect(refusal(() => uploadTarget(new QueryParameters('variant=1&staged=maybe'), 'image/png')).status).toBe(400);
  });

  it('makes fresh object keys under the project, with the project key encoded', () => {
    const key = imageObjectKey('demo', 'front.png');
    expect(key).toMatch(/^demo\/images\/[0-9a-f-]{36}\/front\.png$/);
    expect(imageObjectKey('demo', 'front.png')).not.toBe(key);
    expect(imageObjectKey('a/b', 'img')).toMatch(/^a%2Fb\/images\/[0-9a-f-]{36}\/img$/);
  });
});
