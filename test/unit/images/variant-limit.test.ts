import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DomainError, InvalidOperationError } from '../../../shared/domain/errors';
import { MAX_VARIANT_IMAGES } from '../../../shared/domain/images/variant-limits';
import type { Image } from '../../../shared/domain/images/variant';
import { toApiError } from '../../../shared/http/errors';
import { QueryParameters } from '../../../shared/http/query-parameters';
import { ImageService } from '../../../shared/services/image-service';
import { UploadTicketService } from '../../../shared/services/upload-ticket-service';
import { DynamoDbVariantStore } from '../../../shared/store/dynamodb/variant-store';
import { fakeSigner, GIF_1X1, MemoryStorage, MemoryUploads, recordingVariants } from './fakes';

/** A variant holds at most MAX_VARIANT_IMAGES images, so that its item stays under DynamoDB's 400 KB. */

const image: Image = { url: 'https://images.example/demo/images/u/img', dimensions: { w: 1, h: 1 }, contentType: 'image/gif', label: 'img' };
const images = (count: number) => Array.from({ length: count }, () => image);

interface SentUpdate {
  ConditionExpression: string;
  ExpressionAttributeValues: Record<string, unknown>;
}

/**
 * A document client whose UpdateItem fails its condition, returning `current` (as ALL_OLD does);
 * `withToken` puts the write's own token on it, as on a repeat of an applied write. A GetItem (of a
 * sku's sentinel) finds nothing.
 */
function failingCondition(current: Record<string, unknown> | undefined, options: { withToken?: boolean } = {}) {
  const sent: SentUpdate[] = [];
  const send = async (command: { constructor: { name: string }; input: SentUpdate }) => {
    if (command.constructor.name === 'GetCommand') return {};
    if (command.constructor.name !== 'UpdateCommand') throw new Error(`unexpected ${command.constructor.name}`);
    sent.push(command.input);
    const item = current && (options.withToken ? { ...current, writeToken: command.input.ExpressionAttributeValues[':writeToken'] } : current);
    throw Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException', ...(item ? { Item: item } : {}) });
  };
  return { db: { send } as unknown as DynamoDBDocumentClient, sent };
}

const variantItem = (fields: Record<string, unknown>) => ({ pk: 'PROJECT#demo', sk: 'VARIANT#7', type: 'variant', id: 7, ...fields });

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  const answer = toApiError(error);
  return { status: answer.statusCode, code: answer.errors[0].code, message: answer.message };
}

describe(`the variant store: at most ${MAX_VARIANT_IMAGES} images per variant`, () => {
  it('holds the limit in the append\'s condition: stagedImages always, images too when the image is published', async () => {
    for (const publish of [false, true]) {
      const { db, sent } = failingCondition(variantItem({ images: [], stagedImages: images(MAX_VARIANT_IMAGES) }));
      await new DynamoDbVariantStore(db, 'table').attachImage('demo', { id: 7 }, image, publish).catch(() => undefined);
      expect(sent[0]!.ConditionExpression).toContain('size(stagedImages) < :maxImages');
      expect(sent[0]!.ConditionExpression.includes('size(images) < :maxImages')).toBe(publish);
      expect(sent[0]!.ExpressionAttributeValues[':maxImages']).toBe(MAX_VARIANT_IMAGES);
    }
  });

  it('answers a full variant 400 InvalidOperation naming it and the limit, staged or published', async () => {
    const fullStaged = failingCondition(variantItem({ images: [], stagedImages: images(MAX_VARIANT_IMAGES) }));
    expect(await refusalOf(new DynamoDbVariantStore(fullStaged.db, 'table').attachImage('demo', { id: 7 }, image, false))).toEqual({
      status: 400,
      code: 'InvalidOperation',
      message: `Variant 7 holds the maximum of ${MAX_VARIANT_IMAGES} images: no more can be attached.`,
    });
    // A variant stored before the limit, holding more than it.
    const overFull = failingCondition(variantItem({ images: images(MAX_VARIANT_IMAGES + 5), stagedImages: images(MAX_VARIANT_IMAGES + 5) }));
    expect((await refusalOf(new DynamoDbVariantStore(overFull.db, 'table').attachImage('demo', { id: 7 }, image, true))).message).toContain('holds the maximum');
    // The published list full (the staged one not): a published image is refused too.
    const fullPublished = failingCondition(variantItem({ images: images(MAX_VARIANT_IMAGES), stagedImages: images(MAX_VARIANT_IMAGES - 1) }));
    expect((await refusalOf(new DynamoDbVariantStore(fullPublished.db, 'table').attachImage('demo', { id: 7 }, image, true))).message).toContain('holds the maximum');
  });

  it('tells the limit apart from the other reasons the condition fails: a repeat of an applied write, another sku', async () => {
    // The SDK's repeat of an append that was applied and made the variant full: the variant, not a refusal.
    const applied = failingCondition(variantItem({ images: [], stagedImages: images(MAX_VARIANT_IMAGES) }), { withToken: true });
    const variant = await new DynamoDbVariantStore(applied.db, 'table').attachImage('demo', { id: 7 }, image, false);
    expect(variant.stagedImages).toHaveLength(MAX_VARIANT_IMAGES);

    // A full variant of another sku: the sku is what is wrong.
    const otherSku = failingCondition(variantItem({ sku: 'other', images: [], stagedImages: images(MAX_VARIANT_IMAGES) }));
    // The sku has no sentinel, so the variant number chooses the variant, which must carry the sku.
    expect(await refusalOf(new DynamoDbVariantStore(otherSku.db, 'table').attachImage('demo', { id: 7, sku: 'mine' }, image, false))).toMatchObject({
      status: 400,
      message: "Variant 7 has the sku 'other', not 'mine'.",
    });
  });

  it('is no refusal of the caller\'s when the variant shows no failed conjunct', async () => {
    const puzzling = failingCondition(variantItem({ images: [], stagedImages: images(3) }));
    const error = await new DynamoDbVariantStore(puzzling.db, 'table').attachImage('demo', { id: 7 }, image, false).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DomainError);
  });
});

describe('ImageService: an image refused by a full variant leaves no object behind', () => {
  const full = () =>
    recordingVariants(async () => {
      throw new InvalidOperationError(`Variant 7 holds the maximum of ${MAX_VARIANT_IMAGES} images: no more can be attached.`);
    });

  it('POST /{projectKey}/resource/images: 400 InvalidOperation, the stored object deleted again', async () => {
    const storage = new MemoryStorage();
    const variants = full();
    const service = new ImageService(variants, storage, new MemoryUploads());
    expect(await refusalOf(service.upload('demo', new QueryParameters('variant=7'), 'image/gif', GIF_1X1))).toMatchObject({
      status: 400,
      code: 'InvalidOperation',
      message: expect.stringContaining(`holds the maximum of ${MAX_VARIANT_IMAGES} images`),
    });
    expect(variants.attached).toHaveLength(1);
    expect(storage.deleted).toHaveLength(1);
    expect(storage.objects.size).toBe(0);
  });

  it('the two-step upload: 400 InvalidOperation, the published copy and the pending object deleted, the upload closed', async () => {
    const storage = new MemoryStorage();
    const uploads = new MemoryUploads();
    const variants = full();
    const service = new ImageService(variants, storage, uploads);
    const ticket = await new UploadTicketService(fakeSigner, uploads).startUpload('demo', new QueryParameters(`variant=7&contentType=image/gif&size=${GIF_1X1.length}`));
    const pending = (await uploads.get('demo', ticket.uploadId))!;
    storage.receive(pending.objectKey, GIF_1X1, 'image/gif');

    expect(await refusalOf(service.completeUpload('demo', ticket.uploadId))).toMatchObject({ status: 400, code: 'InvalidOperation' });
    expect(variants.attached).toHaveLength(1);
    expect(storage.deleted).toHaveLength(1);
    expect(storage.objects.size).toBe(0);
    expect(storage.pending.size).toBe(0);
    expect((await refusalOf(service.completeUpload('demo', ticket.uploadId))).status).toBe(404);
  });
});
