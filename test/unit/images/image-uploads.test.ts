import { beforeEach, describe, expect, it } from 'vitest';
import { DomainError, InvalidOperationError, StoreUnavailableError, VersionConflictError } from '../../../shared/domain/errors';
import { UPLOAD_PREFIX_BYTES, UPLOAD_TTL_SECONDS, type PendingUpload } from '../../../shared/domain/images/image-upload';
import { toApiError } from '../../../shared/http/errors';
import { QueryParameters } from '../../../shared/http/query-parameters';
import { ImageService } from '../../../shared/services/image-service';
import { UploadTicketService } from '../../../shared/services/upload-ticket-service';
import { fakeSigner, GIF_1X1, jpeg, MemoryStorage, MemoryUploads, png, recordingVariants, type RecordingVariants } from './fakes';

/** The two-step upload (start: UploadTicketService; PUT to S3; complete: ImageService), against in-memory stores and a settable clock. */
let storage: MemoryStorage;
let uploads: MemoryUploads;
let variants: RecordingVariants;
let clock: number;
let service: ImageService;
let tickets: UploadTicketService;

beforeEach(() => {
  storage = new MemoryStorage();
  uploads = new MemoryUploads();
  variants = recordingVariants();
  clock = Date.parse('2026-11-21T12:00:00.000Z');
  service = new ImageService(variants, storage, uploads, () => clock);
  tickets = new UploadTicketService(fakeSigner, uploads, () => clock);
});

const start = (query: string) => tickets.startUpload('demo', new QueryParameters(query));

/** Starts an upload and returns its record. */
async function started(query: string): Promise<PendingUpload> {
  const ticket = await start(query);
  return (await uploads.get('demo', ticket.uploadId))!;
}

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (error instanceof DomainError) {
    const answer = toApiError(error);
    return { status: answer.statusCode, code: answer.errors[0].code, message: answer.message };
  }
  throw new Error(`expected a refusal, got ${String(error)}`);
}

describe('starting an upload', () => {
  it('records the pending upload and answers a presigned PUT for a fresh key, both expiring in 15 minutes', async () => {
    const image = png(4, 3);
    const ticket = await start(`sku=s-1&variant=4&filename=front.png&staged=false&contentType=image/png&size=${image.length}`);
    expect(ticket).toEqual({
      uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      method: 'PUT',
      url: expect.stringMatching(/^https:\/\/uploads\.example\/demo\/uploads\/[0-9a-f-]{36}\/front\.png\?X-Amz-Expires=900$/),
      headers: { 'content-type': 'image/png', 'content-length': String(image.length) },
      expiresAt: '2026-11-21T12:15:00.000Z',
    });
    const record = await uploads.get('demo', ticket.uploadId);
    expect(record).toEqual({
      uploadId: ticket.uploadId,
      objectKey: expect.stringMatching(/^demo\/uploads\/[0-9a-f-]{36}\/front\.png$/),
      contentType: 'image/png',
      size: image.length,
      selector: { sku: 's-1', id: 4 },
      filename: 'front.png',
      publish: true,
      expiresAt: clock / 1000 + UPLOAD_TTL_SECONDS,
    });
    expect(ticket.url).toContain(record!.objectKey);
    expect(storage.objects.size).toBe(0);
    expect(storage.pending.size).toBe(0);
  });

  it('refuses what POST /{projectKey}/resource/images refuses, and sizes outside 1..20,000,000, before anything is recorded', async () => {
    expect(await refusalOf(start('contentType=image/png&size=10'))).toMatchObject({ status: 400, message: expect.stringContaining('sku or variant') });
    expect(await refusalOf(start('sku=a%20b&contentType=image/png&size=10'))).toMatchObject({ status: 400, code: 'InvalidInput' });
    expect(await refusalOf(start('sku=a&contentType=image/webp&size=10'))).toMatchObject({ status: 415, code: 'UnsupportedMediaType' });
    expect(await refusalOf(start('sku=a&size=10'))).toMatchObject({ status: 415 });
    expect(await refusalOf(start('sku=a&contentType=image/png'))).toMatchObject({ status: 400, message: expect.stringContaining("'size' is required") });
    for (const size of ['0', '20000001', '1.5', 'ten']) {
      expect(await refusalOf(start(`sku=a&contentType=image/png&size=${size}`))).toMatchObject({ status: 400, code: 'InvalidInput' });
    }
    expect(uploads.records.size).toBe(0);
    expect((await start('sku=a&contentType=image/gif&size=20000000')).headers['content-length']).toBe('20000000');
  });
});

describe('completing an upload', () => {
  it('checks the pending object, publishes a copy at a fresh served key and attaches that; the upload is then gone (a second completion is 404)', async () => {
    const image = png(4, 3);
    const pending = await started(`sku=s-1&filename=front.png&contentType=image/png&size=${image.length}`);
    storage.receive(pending.objectKey, image, 'image/png');
    expect(storage.objects.size).toBe(0); // nothing unchecked is served

    const variant = await service.completeUpload('demo', pending.uploadId);
    const expected = {
      url: expect.stringMatching(/^https:\/\/images\.example\/demo\/images\/[0-9a-f-]{36}\/front\.png$/),
      dimensions: { w: 4, h: 3 },
      contentType: 'image/png',
      label: 'front.png',
    };
    expect(variant.stagedImages).toEqual([expected]);
    expect(variants.attached).toEqual([{ selector: { sku: 's-1' }, image: expected, publish: false }]);
    expect(storage.reads).toEqual([{ key: pending.objectKey, maxBytes: UPLOAD_PREFIX_BYTES }]);
    expect(uploads.records.size).toBe(0);
    expect(storage.objects.get(storage.keyOf(variant.stagedImages[0]!.url))?.bytes).toEqual(image);
    // Left to the uploads bucket's lifecycle rule: no request spent on it.
    expect(storage.pending.has(pending.objectKey)).toBe(true);

    expect(await refusalOf(service.completeUpload('demo', pending.uploadId))).toMatchObject({ status: 404 });
    expect(variants.attached).toHaveLength(1);
    expect(storage.objects.size).toBe(1);
  });

  it('is 409 InvalidOperation while nothing was uploaded, and the upload stays open', async () => {
    const pending = await started(`variant=3&contentType=image/gif&size=${GIF_1X1.length}`);
    expect(await refusalOf(service.completeUpload('demo', pending.uploadId))).toMatchObject({ status: 409, code: 'InvalidOperation' });
    expect(uploads.records.size).toBe(1);
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
    expect((await service.completeUpload('demo', pending.uploadId)).stagedImages[0]).toMatchObject({ dimensions: { w: 1, h: 1 } });
  });

  it.each([
    ['a GIF uploaded as the PNG it was declared', GIF_1X1, 'image/png', 'image/png', 415, 'UnsupportedMediaType'],
    ['an object stored with another content type', GIF_1X1, 'image/gif', 'image/png', 415, 'UnsupportedMediaType'],
    ['bytes of no image type', Buffer.from('not an image at all'), 'image/gif', 'image/gif', 415, 'UnsupportedMediaType'],
    ['a GIF signature over too little', Buffer.from('GIF8 is not enough'), 'image/gif', 'image/gif', 400, 'InvalidInput'],
    ['a PNG signature over garbage', Buffer.concat([png(1, 1).subarray(0, 8), Buffer.alloc(40, 1)]), 'image/png', 'image/png', 400, 'InvalidInput'],
  ] as const)('refuses %s, and deletes the object and the upload', async (_, bytes, declared, stored, status, code) => {
    const pending = await started(`sku=x&contentType=${declared}&size=${bytes.length}`);
    storage.receive(pending.objectKey, bytes, stored);
    expect(await refusalOf(service.completeUpload('demo', pending.uploadId))).toMatchObject({ status, code });
    expect(storage.pending.has(pending.objectKey)).toBe(false);
    expect(uploads.records.size).toBe(0);
    expect(variants.attached).toHaveLength(0);
  });

  it('refuses an unreadable image of the right type (400) and another size than declared (400), deleting the object', async () => {
    const unreadable = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(30)]);
    const first = await started(`sku=x&contentType=image/jpeg&size=${unreadable.length}`);
    storage.receive(first.objectKey, unreadable, 'image/jpeg');
    expect(await refusalOf(service.completeUpload('demo', first.uploadId))).toMatchObject({
      status: 400,
      code: 'InvalidInput',
      message: 'The uploaded object is not a readable image/jpeg image.',
    });
    expect(storage.pending.has(first.objectKey)).toBe(false);

    const image = png(2, 2);
    const second = await started(`sku=x&contentType=image/png&size=${image.length + 1}`);
    storage.receive(second.objectKey, image, 'image/png');
    expect(await refusalOf(service.completeUpload('demo', second.uploadId))).toMatchObject({
      status: 400,
      message: `The uploaded image has ${image.length} bytes; ${image.length + 1} were declared.`,
    });
    expect(storage.pending.has(second.objectKey)).toBe(false);
    expect(uploads.records.size).toBe(0);
  });

  it('reads the whole object when the dimensions are not in its first 512 KB (a JPEG with large metadata)', async () => {
    const image = jpeg(1920, 1080, 700_000);
    const pending = await started(`sku=j&contentType=image/jpeg&size=${image.length}`);
    storage.receive(pending.objectKey, image, 'image/jpeg');
    const variant = await service.completeUpload('demo', pending.uploadId);
    expect(variant.stagedImages[0]!.dimensions).toEqual({ w: 1920, h: 1080 });
    expect(storage.reads).toEqual([{ key: pending.objectKey, maxBytes: UPLOAD_PREFIX_BYTES }, { key: pending.objectKey }]);
  });

  it('is 404 for unknown ids, ids that are no upload id, and uploads of another project, without touching them', async () => {
    const pending = await started(`sku=x&contentType=image/gif&size=${GIF_1X1.length}`);
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
    for (const [project, id] of [['demo', '7b5f6d0c-4b8e-4c50-9d0a-3f1b2a4c5d6e'], ['demo', 'x'.repeat(2000)], ['demo', pending.uploadId.toUpperCase()], ['other', pending.uploadId]] as const) {
      expect(await refusalOf(service.completeUpload(project, id))).toMatchObject({ status: 404, code: 'ResourceNotFound' });
    }
    expect(storage.pending.has(pending.objectKey)).toBe(true);
    expect(uploads.records.size).toBe(1);
  });

  it('names a long upload id in the 404 shortened to 60 characters, never through a surrogate pair', async () => {
    const refusal = await refusalOf(service.completeUpload('demo', '😀'.repeat(40)));
    expect(refusal.message).toBe(`The image upload '${'😀'.repeat(28)}...' was not found.`);
    expect(refusal.message.isWellFormed()).toBe(true);
  });

  it('is 404 once the upload expired, and removes what was uploaded', async () => {
    const pending = await started(`sku=x&contentType=image/gif&size=${GIF_1X1.length}`);
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
    clock += UPLOAD_TTL_SECONDS * 1000;
    expect(await refusalOf(service.completeUpload('demo', pending.uploadId))).toMatchObject({ status: 404 });
    expect(storage.pending.has(pending.objectKey)).toBe(false);
    expect(uploads.records.size).toBe(0);
  });

  it('attaches nothing and deletes nothing when another completion took the upload first', async () => {
    const pending = await started(`sku=x&contentType=image/gif&size=${GIF_1X1.length}`);
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
    uploads.loseClaims = true;
    expect(await refusalOf(service.completeUpload('demo', pending.uploadId))).toMatchObject({ status: 404 });
    expect(variants.attached).toHaveLength(0);
    expect(storage.pending.has(pending.objectKey)).toBe(true);
    expect(storage.objects.size).toBe(0); // its own copy is removed again
  });

  it('removes its copy again when the claim fails (the store unavailable: 503), and attaches nothing', async () => {
    const pending = await started(`sku=x&contentType=image/gif&size=${GIF_1X1.length}`);
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
    uploads.failClaims = new StoreUnavailableError(new Error('transaction still in progress'));
    await expect(service.completeUpload('demo', pending.uploadId)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(variants.attached).toHaveLength(0);
    expect(storage.objects.size).toBe(0);
    expect(storage.pending.has(pending.objectKey)).toBe(true); // completing again can still succeed
  });

  it('deletes the object when the variant cannot record it (the rule of POST /{projectKey}/resource/images)', async () => {
    const failing = recordingVariants(async () => {
      throw new StoreUnavailableError(new Error('DynamoDB throttled'));
    });
    service = new ImageService(failing, storage, uploads, () => clock);
    const pending = await started(`sku=x&contentType=image/gif&size=${GIF_1X1.length}`);
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
    await expect(service.completeUpload('demo', pending.uploadId)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(failing.attached).toHaveLength(1);
    expect(storage.objects.size).toBe(0);
    expect(storage.deleted).toHaveLength(1);
  });

  it('opens the upload again when attaching fails after the claim in a way that can pass (503, races lost): the retry completes it', async () => {
    for (const failure of [new StoreUnavailableError(new Error('DynamoDB throttled')), new VersionConflictError(undefined, undefined)]) {
      let fail = true;
      const flaky = recordingVariants(async (image) => {
        if (fail) throw failure;
        return { id: 1, images: [], stagedImages: [image] };
      });
      service = new ImageService(flaky, storage, uploads, () => clock);
      const pending = await started(`sku=x&contentType=image/gif&size=${GIF_1X1.length}`);
      storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
      await expect(service.completeUpload('demo', pending.uploadId)).rejects.toBe(failure);
      expect(await uploads.get('demo', pending.uploadId)).toEqual(pending);
      expect(storage.pending.has(pending.objectKey)).toBe(true);
      fail = false;
      const retried = await service.completeUpload('demo', pending.uploadId);
      expect(retried.stagedImages).toHaveLength(1);
      expect(await uploads.get('demo', pending.uploadId)).toBeUndefined();
    }
  });

  it('ends the upload when the variant refuses the image (a refusal, not a failure that can pass)', async () => {
    const refusing = recordingVariants(async () => {
      throw new InvalidOperationError('Variant 1 holds the maximum of 200 images: no more can be attached.');
    });
    service = new ImageService(refusing, storage, uploads, () => clock);
    const pending = await started(`sku=x&contentType=image/gif&size=${GIF_1X1.length}`);
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');
    expect(await refusalOf(service.completeUpload('demo', pending.uploadId))).toMatchObject({ status: 400 });
    expect(await uploads.get('demo', pending.uploadId)).toBeUndefined();
    expect(storage.pending.has(pending.objectKey)).toBe(false);
    expect(storage.objects.size).toBe(0);
  });
});
