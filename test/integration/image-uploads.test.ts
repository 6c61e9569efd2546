import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { GIF_1X1, png } from '../support/images';
import { call, tokenFor, uniqueKey } from './api-client';

/**
 * The two-step image upload against the local stack: start (a presigned URL of s3rver), PUT the
 * bytes straight to it, complete. s3rver does not check signatures, so the refusals S3 itself
 * would make (another length or type) are exercised through the completion's own checks.
 */

/** Random pixels do not compress: about width × height × 3 bytes. */
const noisyPng = (width: number, height: number) => png(width, height, 'noisy');

interface Ticket {
  uploadId: string;
  method: 'PUT';
  url: string;
  headers: Record<string, string>;
  expiresAt: string;
}

const startUpload = async (query: string, scope = 'manage_products:demo') =>
  call('POST', `/demo/resource/images/uploads?${query}`, { token: await tokenFor(scope) });
const completeUpload = async (uploadId: string, scope = 'manage_products:demo') =>
  call('POST', `/demo/resource/images/uploads/${uploadId}`, { token: await tokenFor(scope) });

/** PUTs the bytes to the presigned URL with the headers the ticket lists, as a client would. */
const putTo = (ticket: Ticket, bytes: Buffer) => fetch(ticket.url, { method: ticket.method, headers: ticket.headers, body: bytes });

/** Where the emulator holds the pending object the URL writes (its path, without the signature): the S3 API, not a served address. */
const objectUrl = (ticket: Ticket) => {
  const url = new URL(ticket.url);
  return `${url.origin}${url.pathname}`;
};

/** The local image CDN (IMAGE_BASE_URL), from the endpoints.json that `npm start` writes. */
const imageBaseUrl = (): string => JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8')).imageBaseUrl;

/** Every address the image CDN could serve a pending object at: its key as is, and with images/ for uploads/. */
const servedAddressesOf = (ticket: Ticket) => {
  const key = new URL(ticket.url).pathname.replace(/^\/image-uploads\//, '');
  return [`${imageBaseUrl()}/${key}`, `${imageBaseUrl()}/${key.replace('/uploads/', '/images/')}`, `${imageBaseUrl()}/image-uploads/${key}`];
};

describe('two-step image upload through a presigned S3 URL', () => {
  it('takes a 6 MB PNG (over the limit of POST /{projectKey}/resource/images): start, PUT to S3, complete; the image URL serves the same bytes', async () => {
    const image = noisyPng(1000, 2000);
    expect(image.length).toBeGreaterThan(6_000_000);
    const sku = uniqueKey('sku');

    const started = await startUpload(`sku=${sku}&filename=big.png&contentType=image/png&size=${image.length}`);
    expect(started.status).toBe(201);
    const ticket: Ticket = started.body;
    expect(ticket).toMatchObject({ uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/), method: 'PUT' });
    expect(ticket.headers).toMatchObject({ 'content-type': 'image/png', 'content-length': String(image.length), 'if-none-match': '*' });
    // Pending uploads go to a bucket of their own, which the image CDN does not serve.
    expect(new URL(ticket.url).pathname).toMatch(/^\/image-uploads\/demo\/uploads\/[0-9a-f-]{36}\/big\.png$/);
    expect(new URL(ticket.url).searchParams.get('X-Amz-Expires')).toBe('900');
    expect(Date.parse(ticket.expiresAt) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(Date.parse(ticket.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);

    const put = await putTo(ticket, image);
    expect(put.status).toBe(200);
    // Uploaded but not checked: reachable at no served address.
    for (const address of servedAddressesOf(ticket)) expect((await fetch(address)).status, address).toBe(404);

    const completed = await completeUpload(ticket.uploadId);
    expect(completed.status).toBe(200);
    // The answer of POST /{projectKey}/resource/images: the variant with its images' addresses.
    expect(completed.body).toMatchObject({ id: expect.stringMatching(/^\d+$/), sku, images: [] });
    expect(completed.body.stagedImages).toHaveLength(1);
    const [staged] = completed.body.stagedImages;
    // Checked: published at a fresh key of the served images, with nosniff; the pending object is
    // left to the uploads bucket's lifecycle rule (a day), which keeps it for a retry.
    expect(staged).toMatch(new RegExp(`^${imageBaseUrl()}/demo/images/[0-9a-f-]{36}/big\\.png$`));
    const served = await fetch(staged);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(image)).toBe(true);
    expect((await fetch(objectUrl(ticket))).status).toBe(200);

    // The upload is used up: completing again is 404, and the variant keeps one image.
    const again = await completeUpload(ticket.uploadId);
    expect(again.status).toBe(404);
    expect(again.body.errors[0].code).toBe('ResourceNotFound');
    const next = await call('POST', `/demo/resource/images?sku=${sku}`, {
      token: await tokenFor('manage_products:demo'),
      body: GIF_1X1,
      headers: { 'content-type': 'image/gif' },
    });
    expect(next.body.stagedImages).toHaveLength(2);
  });

  it('attaches to the variant chosen at the start, staged=false publishing it too', async () => {
    const sku = uniqueKey('sku');
    const first = await startUpload(`sku=${sku}&contentType=image/gif&size=${GIF_1X1.length}`);
    expect((await putTo(first.body, GIF_1X1)).status).toBe(200);
    const created = await completeUpload(first.body.uploadId);
    expect(created.status).toBe(200);

    const second = await startUpload(`variant=${created.body.id}&staged=false&contentType=image/gif&size=${GIF_1X1.length}`);
    expect((await putTo(second.body, GIF_1X1)).status).toBe(200);
    const published = await completeUpload(second.body.uploadId);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ id: created.body.id, sku });
    expect(published.body.stagedImages).toHaveLength(2);
    expect(published.body.images).toEqual([published.body.stagedImages[1]]);
    expect((await fetch(published.body.images[0])).headers.get('content-type')).toBe('image/gif');
  });

  it('refuses an object of another type than declared (a GIF sent as PNG) with 415 and deletes it', async () => {
    const started = await startUpload(`sku=${uniqueKey('sku')}&contentType=image/png&size=${GIF_1X1.length}`);
    expect(started.status).toBe(201);
    expect((await putTo(started.body, GIF_1X1)).status).toBe(200);
    expect((await fetch(objectUrl(started.body))).status).toBe(200);
    for (const address of servedAddressesOf(started.body)) expect((await fetch(address)).status, address).toBe(404);

    const completed = await completeUpload(started.body.uploadId);
    expect(completed.status).toBe(415);
    expect(completed.body.errors[0]).toMatchObject({ code: 'UnsupportedMediaType', message: 'Expected content type image/png, received bytes of image/gif.' });
    expect((await fetch(objectUrl(started.body))).status).toBe(404);
    // The refused upload is closed.
    expect((await completeUpload(started.body.uploadId)).status).toBe(404);
  });

  it('refuses an object of another length than declared (shorter, longer, empty) with 400 naming both, and deletes it', async () => {
    for (const bytes of [GIF_1X1.subarray(0, 20), Buffer.concat([GIF_1X1, Buffer.alloc(10)]), Buffer.alloc(0)]) {
      const started = await startUpload(`sku=${uniqueKey('sku')}&contentType=image/gif&size=${GIF_1X1.length}`);
      expect(started.status).toBe(201);
      // S3 refuses such a PUT (the length is signed); s3rver does not check, so the completion must.
      const { 'content-length': _signed, ...headers } = (started.body as Ticket).headers;
      expect((await fetch(started.body.url, { method: 'PUT', headers, body: bytes })).status, `${bytes.length} bytes`).toBe(200);

      const completed = await completeUpload(started.body.uploadId);
      expect(completed.status, `${bytes.length} bytes`).toBe(400);
      expect(completed.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: `The uploaded image has ${bytes.length} bytes; ${GIF_1X1.length} were declared.` });
      expect((await fetch(objectUrl(started.body))).status).toBe(404);
      expect((await completeUpload(started.body.uploadId)).status).toBe(404);
    }
  });

  it('is 409 InvalidOperation before the image was uploaded, and completes once it is', async () => {
    const started = await startUpload(`sku=${uniqueKey('sku')}&contentType=image/gif&size=${GIF_1X1.length}`);
    const early = await completeUpload(started.body.uploadId);
    expect(early.status).toBe(409);
    expect(early.body.errors[0]).toMatchObject({ code: 'InvalidOperation', message: expect.stringContaining('not been uploaded yet') });

    expect((await putTo(started.body, GIF_1X1)).status).toBe(200);
    expect((await completeUpload(started.body.uploadId)).status).toBe(200);
  });

  it('is 404 for an unknown upload id, an id that is none, and an upload of another project', async () => {
    const unknown = await completeUpload(randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('ResourceNotFound');
    expect((await completeUpload('not-an-upload-id')).status).toBe(404);

    const started = await startUpload(`sku=${uniqueKey('sku')}&contentType=image/gif&size=${GIF_1X1.length}`);
    const elsewhere = await call('POST', `/other/resource/images/uploads/${started.body.uploadId}`, { token: await tokenFor('manage_products:other') });
    expect(elsewhere.status).toBe(404);
  });

  it('refuses at the start what could never complete: over 20,000,000 bytes, no size, another type, no variant', async () => {
    const sku = uniqueKey('sku');
    const tooLarge = await startUpload(`sku=${sku}&contentType=image/png&size=20000001`);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors[0]).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining("'size'") });
    expect((await startUpload(`sku=${sku}&contentType=image/png&size=0`)).status).toBe(400);
    const noSize = await startUpload(`sku=${sku}&contentType=image/png`);
    expect(noSize.status).toBe(400);
    expect(noSize.body.errors[0].message).toBe("The query parameter 'size' is required.");
    expect((await startUpload(`sku=${sku}&size=10`)).status).toBe(400);
    const webp = await startUpload(`sku=${sku}&contentType=image/webp&size=10`);
    expect(webp.status).toBe(415);
    expect(webp.body.errors[0].code).toBe('UnsupportedMediaType');
    const unselected = await startUpload('contentType=image/png&size=10');
    expect(unselected.status).toBe(400);
    expect(unselected.body.errors[0].message).toContain('sku');
    expect((await startUpload(`sku=${encodeURIComponent('a b')}&contentType=image/png&size=10`)).status).toBe(400);
  });

  it('needs manage_products: manage_test alone is 403 on both steps', async () => {
    const start = await startUpload(`sku=${uniqueKey('sku')}&contentType=image/png&size=10`, 'manage_test:demo');
    expect(start.status).toBe(403);
    expect(start.body.errors[0]).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('manage_products:demo') });
    const complete = await completeUpload(randomUUID(), 'manage_test:demo');
    expect(complete.status).toBe(403);
  });
});
