import { randomUUID } from 'node:crypto';
import { InvalidInputError } from '../domain/errors';
import { MAX_UPLOAD_BYTES, UPLOAD_TTL_SECONDS } from '../domain/images/image-upload';
import type { ImageUploadTicket } from '../domain/images/image-upload-ticket';
import type { QueryParameters } from '../domain/query-parameters';
import type { PendingUploadSigner } from '../store/pending-upload-signer';
import type { UploadStore } from '../store/upload-store';
import { declaredImageType, pendingObjectKey, uploadTarget } from './image-checks';

/**
 * Step 1 of the two-step image upload: checks what can be checked before the bytes exist (the
 * variant selector, the type, the size), records the pending upload and answers a presigned PUT
 * URL for a fresh object key. Both expire after UPLOAD_TTL_SECONDS. Step 2, completion, is
 * ImageService's: it needs the stored bytes, this step only a signature.
 */
export class UploadTicketService {
  constructor(
    private readonly signer: PendingUploadSigner,
    private readonly uploads: UploadStore,
    private readonly now: () => number = Date.now,
  ) {}

  async startUpload(projectKey: string, query: QueryParameters): Promise<ImageUploadTicket> {
    const size = query.number('size', { integer: true, min: 1, max: MAX_UPLOAD_BYTES });
    if (size === undefined) throw new InvalidInputError(`The query parameter 'size' is required: the image's length in bytes (at most ${MAX_UPLOAD_BYTES}).`);
    const contentType = declaredImageType(query.string('contentType'));
    const target = uploadTarget(query, contentType);

    const uploadId = randomUUID();
    const objectKey = pendingObjectKey(projectKey, target.filename);
    const expiresAt = Math.floor(this.now() / 1000) + UPLOAD_TTL_SECONDS;
    // Presigning is local work (no request to S3): it runs while the pending record is written.
    const [{ url, headers }] = await Promise.all([
      this.signer.presignPut(objectKey, contentType, size, UPLOAD_TTL_SECONDS),
      this.uploads.create(projectKey, { uploadId, objectKey, contentType, size, ...target, expiresAt }),
    ]);
    return { uploadId, method: 'PUT', url, headers, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }
}
