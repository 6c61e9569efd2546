import { randomUUID } from 'node:crypto';
import { detectImageType, isImageContentType, MAX_IMAGE_SIDE, readDimensions, safeFileName, type ImageContentType } from '../domain/images/image-file';
import { InvalidInputError, UnsupportedMediaTypeError } from '../domain/errors';
import type { QueryParameters } from '../domain/query-parameters';

/**
 * The checks both image uploads make — POST /{projectKey}/resource/images's body and the two-step upload's S3 object: the
 * declared type, the bytes' magic number, the dimensions, and where the image goes.
 */

const SUPPORTED_TYPES = 'image/jpeg, image/png or image/gif';

/** `image/PNG; charset=x` → `image/png`. */
export const mediaTypeOf = (value: string | undefined): string => value?.split(';')[0]?.trim().toLowerCase() ?? '';

/** The declared type (the Content-Type header, or the `contentType` parameter) when the service takes it; else 415. */
export function declaredImageType(declared: string | undefined): ImageContentType {
  const type = mediaTypeOf(declared);
  if (!isImageContentType(type)) throw new UnsupportedMediaTypeError(SUPPORTED_TYPES, declared);
  return type;
}

/** The bytes (the first few suffice) begin with the magic number of the declared type; else 415. */
export function checkMagicNumber(declared: ImageContentType, bytes: Uint8Array): void {
  const detected = detectImageType(bytes);
  if (detected !== declared) throw new UnsupportedMediaTypeError(declared, detected ? `bytes of ${detected}` : 'bytes of no supported image type');
}

/** Width and height as image-size reads them for the declared type; 400 when it cannot, or when either is over MAX_IMAGE_SIDE. `what` names the bytes in the message. */
export function dimensionsOf(declared: ImageContentType, bytes: Uint8Array, what: string): { w: number; h: number } {
  const dimensions = readDimensions(declared, bytes);
  if (!dimensions) throw new InvalidInputError(`${what} is not a readable ${declared} image.`);
  if (dimensions.w > MAX_IMAGE_SIDE || dimensions.h > MAX_IMAGE_SIDE) {
    throw new InvalidInputError(`${what} is ${dimensions.w}×${dimensions.h} pixels; images may be at most ${MAX_IMAGE_SIDE}×${MAX_IMAGE_SIDE} pixels.`);
  }
  return dimensions;
}

export interface VariantSelector {
  sku?: string;
  id?: number;
}

/** Where an image goes: the variant, its label (the safe file name), and whether it is published too. */
export interface UploadTarget {
  selector: VariantSelector;
  filename: string;
  /** `staged=false`: the image joins `images` besides `stagedImages`. */
  publish: boolean;
}

/**
 * The query parameters `sku`, `variant`, `filename` and `staged`; 400 when no variant is chosen or
 * the sku is not one. The file name gets the extension of `type` (the checked type of the bytes).
 */
export function uploadTarget(query: QueryParameters, type: ImageContentType): UploadTarget {
  return { selector: variantSelector(query), filename: safeFileName(query.string('filename'), type), publish: query.boolean('staged') === false };
}

function variantSelector(query: QueryParameters): VariantSelector {
  const sku = query.string('sku');
  const id = query.number('variant', { integer: true, min: 1 });
  if (sku === undefined && id === undefined) throw new InvalidInputError('Choose the variant with the query parameter sku or variant.');
  if (sku !== undefined && !/^\S{1,256}$/.test(sku)) throw new InvalidInputError('The sku must be 1 to 256 characters without spaces.');
  return { ...(sku === undefined ? {} : { sku }), ...(id === undefined ? {} : { id }) };
}

/** A fresh object key, `<projectKey>/images/<uuid>/<filename>`: unique, and not steerable by the file name. */
export function imageObjectKey(projectKey: string, filename: string): string {
  return `${encodeURIComponent(projectKey)}/images/${randomUUID()}/${filename}`;
}

/** A fresh key of a pending upload in the pending-uploads bucket, `<projectKey>/uploads/<uuid>/<filename>`. */
export function pendingObjectKey(projectKey: string, filename: string): string {
  return `${encodeURIComponent(projectKey)}/uploads/${randomUUID()}/${filename}`;
}
