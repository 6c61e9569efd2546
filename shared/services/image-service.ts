import {
  DomainError,
  InvalidInputError,
  InvalidOperationError,
  RequestEntityTooLargeError,
  ResourceNotFoundError,
  UnsupportedMediaTypeError,
  VersionConflictError,
} from '../domain/errors';
import { abbreviate } from '../domain/abbreviate';
import { MAX_IMAGE_BYTES, type ImageContentType } from '../domain/images/image-file';
import { UPLOAD_PREFIX_BYTES, type PendingUpload } from '../domain/images/image-upload';
import type { Variant } from '../domain/images/variant';
import type { QueryParameters } from '../domain/query-parameters';
import { logger } from '../observability/logger';
import type { ImageStorage, StoredObject } from '../store/image-storage';
import type { UploadStore } from '../store/upload-store';
import type { VariantStore } from '../store/variant-store';
import { checkMagicNumber, declaredImageType, dimensionsOf, imageObjectKey, mediaTypeOf, uploadTarget, type UploadTarget } from './image-checks';

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the checks found out about an image. */
interface CheckedImage {
  contentType: ImageContentType;
  dimensions: { w: number; h: number };
}

/**
 * Images of product variants, by two paths with the same checks (image-checks.ts) and the same
 * rule: the object exists before the variant records it, and if the record fails the object is
 * removed again, so no image exists without its variant and no variant points at a missing image.
 *
 * - POST /{projectKey}/resource/images (`upload`): the bytes come in the request body (at most MAX_IMAGE_BYTES).
 * - The two-step upload: the client PUTs up to MAX_UPLOAD_BYTES straight to S3 with a presigned
 *   URL (UploadTicketService hands it out); completing (`completeUpload`) checks the object and
 *   attaches it.
 */
export class ImageService {
  constructor(
    private readonly variants: VariantStore,
    private readonly storage: ImageStorage,
    private readonly uploads: UploadStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** POST /{projectKey}/resource/images: the image is the request body. */
  async upload(projectKey: string, query: QueryParameters, contentTypeHeader: string | undefined, bytes: Buffer | undefined): Promise<Variant> {
    if (!bytes || bytes.length === 0) throw new InvalidInputError('The request body is empty: send the image bytes.');
    if (bytes.length > MAX_IMAGE_BYTES) throw new RequestEntityTooLargeError(MAX_IMAGE_BYTES);
    const contentType = declaredImageType(contentTypeHeader);
    checkMagicNumber(contentType, bytes);
    const dimensions = dimensionsOf(contentType, bytes, 'The body');
    const target = uploadTarget(query, contentType);

    const key = imageObjectKey(projectKey, target.filename);
    await this.storage.put(key, bytes, contentType);
    return this.attachOrDelete(projectKey, key, target, { contentType, dimensions });
  }

  /**
   * Step 2: checks the pending object as POST /{projectKey}/resource/images checks a body, publishes a copy of it at a fresh
   * served key, then attaches that. The pending object lives where nothing serves it, so nothing
   * unchecked is ever public. Nothing uploaded yet is 409 and the upload stays open; an object
   * that fails a check is deleted with its upload. Only the completion that removes the pending
   * record attaches (a losing one removes its copy), so completing twice is 404; one whose attach
   * fails in a way that can pass records the upload again, so that it can be retried.
   */
  async completeUpload(projectKey: string, uploadId: string): Promise<Variant> {
    const pending = await this.pendingUpload(projectKey, uploadId);
    const stored = await this.storage.headPending(pending.objectKey);
    if (!stored) throw notUploadedYet();

    let image: CheckedImage;
    try {
      image = await this.checkUploaded(pending, stored);
    } catch (error) {
      if (error instanceof DomainError && !isNotUploadedYet(error)) await this.discard(projectKey, pending);
      throw error;
    }
    const key = imageObjectKey(projectKey, pending.filename);
    await this.storage.publishPending(pending.objectKey, key, image.contentType);
    // A claim that fails (the store unavailable) attaches nothing either: its copy goes too.
    const claimed = await this.uploads.claim(projectKey, uploadId).catch(async (error: unknown) => {
      await this.deleteObject(key, 'a completion whose claim failed');
      throw error;
    });
    if (!claimed) {
      await this.deleteObject(key, 'a completion that lost the race');
      throw uploadNotFound(uploadId);
    }
    // The pending object stays after a completion: the uploads bucket's lifecycle rule removes it a
    // day later, which spares the completion a request, and keeps it for a retry until then.
    try {
      return await this.attachOrDelete(projectKey, key, pending, image);
    } catch (error) {
      // Attaching failed after the claim. A failure that can pass (the store unavailable, races
      // lost, anything unexpected) opens the upload again, so the 503 or 409 the client gets can be
      // retried; a refusal (the variant full, its sku another) ends it.
      if (!(error instanceof DomainError) || error instanceof VersionConflictError) await this.reopen(projectKey, pending);
      else await this.deletePendingObject(pending.objectKey);
      throw error;
    }
  }

  /** Records the pending upload again, after a completion that claimed it could not attach. */
  private async reopen(projectKey: string, pending: PendingUpload): Promise<void> {
    await this.uploads
      .create(projectKey, pending)
      .catch((reopenError: unknown) => logger.error('could not reopen an upload whose attach failed', { uploadId: pending.uploadId, error: reopenError as Error }));
  }

  /** The pending upload, or 404: unknown, of another project, completed, or expired (then its object goes too). */
  private async pendingUpload(projectKey: string, uploadId: string): Promise<PendingUpload> {
    const pending = UPLOAD_ID.test(uploadId) ? await this.uploads.get(projectKey, uploadId) : undefined;
    if (!pending) throw uploadNotFound(uploadId);
    if (pending.expiresAt * 1000 <= this.now()) {
      await this.discard(projectKey, pending);
      throw uploadNotFound(uploadId);
    }
    return pending;
  }

  /** The declared size and type, then the magic number and the dimensions: from the first bytes, or all of them if need be. */
  private async checkUploaded(pending: PendingUpload, stored: StoredObject): Promise<CheckedImage> {
    if (stored.size !== pending.size) throw new InvalidInputError(`The uploaded image has ${stored.size} bytes; ${pending.size} were declared.`);
    const contentType = pending.contentType as ImageContentType;
    if (mediaTypeOf(stored.contentType) !== contentType) throw new UnsupportedMediaTypeError(contentType, stored.contentType);

    const prefix = await this.storage.readPending(pending.objectKey, UPLOAD_PREFIX_BYTES);
    if (!prefix) throw notUploadedYet();
    checkMagicNumber(contentType, prefix);
    // PNG and GIF name their dimensions in the first bytes; a JPEG may put large metadata before its frame header.
    const whole = prefix.length < stored.size ? () => this.storage.readPending(pending.objectKey) : undefined;
    try {
      return { contentType, dimensions: dimensionsOf(contentType, prefix, 'The uploaded object') };
    } catch (error) {
      if (!whole) throw error;
      const bytes = await whole();
      if (!bytes) throw notUploadedYet();
      return { contentType, dimensions: dimensionsOf(contentType, bytes, 'The uploaded object') };
    }
  }

  /** Ends a refused or expired upload: its record, then its object (unless another completion took the record first). */
  private async discard(projectKey: string, pending: PendingUpload): Promise<void> {
    if (await this.uploads.claim(projectKey, pending.uploadId)) await this.deletePendingObject(pending.objectKey);
  }

  /** Records the image on its variant; if that fails, the object is removed again. */
  private async attachOrDelete(projectKey: string, key: string, target: UploadTarget, image: CheckedImage): Promise<Variant> {
    try {
      const attached = { url: this.storage.urlOf(key), dimensions: image.dimensions, contentType: image.contentType, label: target.filename };
      return await this.variants.attachImage(projectKey, target.selector, attached, target.publish);
    } catch (error) {
      await this.deleteObject(key, 'a failed upload');
      throw error;
    }
  }

  private async deletePendingObject(pendingKey: string): Promise<void> {
    await this.storage
      .deletePending(pendingKey)
      .catch((cleanupError: unknown) => logger.warn('could not remove a pending upload (its lifecycle rule will)', { key: pendingKey, error: cleanupError as Error }));
  }

  private async deleteObject(key: string, of: string): Promise<void> {
    await this.storage.delete(key).catch((cleanupError: unknown) => logger.error(`could not remove the image of ${of}`, { key, error: cleanupError as Error }));
  }
}

const uploadNotFound = (uploadId: string) => new ResourceNotFoundError(`The image upload '${abbreviate(uploadId, 60)}'`);

const notUploadedYet = () =>
  new InvalidOperationError('The image has not been uploaded yet: PUT it to the upload URL with the headers given, then complete the upload.', {
    untilStateChanges: true,
  });

/** Nothing uploaded yet: the upload stays open for another completion. */
const isNotUploadedYet = (error: DomainError) => error instanceof InvalidOperationError && error.untilStateChanges;
