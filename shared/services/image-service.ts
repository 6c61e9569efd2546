import { randomUUID } from 'node:crypto';
import {
  detectImageType,
  isImageContentType,
  MAX_IMAGE_BYTES,
  readDimensions,
  safeFileName,
} from '../domain/images/image-file';
import type { Variant } from '../domain/images/variant';
import { invalidInput, requestEntityTooLarge, unsupportedMediaType } from '../http/errors';
import type { QueryParameters } from '../http/query-parameters';
import { logger } from '../observability/logger';
import type { ImageStorage } from '../store/image-storage';
import type { VariantStore } from '../store/variant-store';

/**
 * Row 13: an image upload. The bytes go to S3 first, then the variant records them; if the
 * record fails the object is removed again, so no image exists without its variant and no
 * variant points at a missing image.
 */
export class ImageService {
  constructor(
    private readonly variants: VariantStore,
    private readonly storage: ImageStorage,
  ) {}

  async upload(projectKey: string, query: QueryParameters, contentTypeHeader: string | undefined, bytes: Buffer | undefined): Promise<Variant> {
    const contentType = checkImage(contentTypeHeader, bytes);
    const dimensions = readDimensions(bytes!);
    if (!dimensions) throw invalidInput(`The body is not a readable ${contentType} image.`);

    const selector = variantSelector(query);
    const filename = safeFileName(query.string('filename'));
    const key = `${encodeURIComponent(projectKey)}/images/${randomUUID()}/${filename}`;
    const publish = query.boolean('staged') === false;

    await this.storage.put(key, bytes!, contentType);
    try {
      const image = { url: this.storage.urlOf(key), dimensions, contentType, label: filename };
      return await this.variants.attachImage(projectKey, selector, image, publish);
    } catch (error) {
      await this.storage.delete(key).catch((cleanupError: unknown) =>
        logger.error('could not remove the image of a failed upload', { key, error: cleanupError as Error }),
      );
      throw error;
    }
  }
}

/** The image type, read from the bytes and matching the Content-Type header. */
function checkImage(contentTypeHeader: string | undefined, bytes: Buffer | undefined) {
  if (!bytes || bytes.length === 0) throw invalidInput('The request body is empty: send the image bytes.');
  if (bytes.length > MAX_IMAGE_BYTES) throw requestEntityTooLarge(MAX_IMAGE_BYTES);
  const declared = contentTypeHeader?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!isImageContentType(declared)) throw unsupportedMediaType('image/jpeg, image/png or image/gif', contentTypeHeader);
  const detected = detectImageType(bytes);
  if (detected !== declared) {
    throw unsupportedMediaType(declared, detected ? `bytes of ${detected}` : 'bytes of no supported image type');
  }
  return declared;
}

function variantSelector(query: QueryParameters): { sku?: string; id?: number } {
  const sku = query.string('sku');
  const id = query.number('variant', { integer: true, min: 1 });
  if (sku === undefined && id === undefined) throw invalidInput('Choose the variant with the query parameter sku or variant.');
  if (sku !== undefined && !/^\S{1,256}$/.test(sku)) throw invalidInput('The sku must be 1 to 256 characters without spaces.');
  return { ...(sku === undefined ? {} : { sku }), ...(id === undefined ? {} : { id }) };
}
