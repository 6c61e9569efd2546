import type { PutObjectPresigner } from '../../aws/s3-presign';
import { StoreUnavailableError } from '../../domain/errors';
import type { PendingUploadSigner, PresignedPut } from '../pending-upload-signer';

/**
 * Upload URLs for the pending-uploads bucket, signed without an S3 client (shared/aws/s3-presign.ts):
 * the function that hands them out sends nothing to S3. Every header is signed: S3 refuses a PUT
 * whose content-type, content-length or if-none-match differ from these (the emulator does not
 * check signatures; completion checks anyway). A signing failure (no credentials) is 503.
 */
export class S3PendingUploadSigner implements PendingUploadSigner {
  constructor(
    private readonly bucket: string,
    /** Asked for on the first URL. */
    private readonly presigner: () => PutObjectPresigner,
  ) {}

  async presignPut(key: string, contentType: string, size: number, expiresInSeconds: number): Promise<PresignedPut> {
    const headers = { 'content-type': contentType, 'content-length': String(size), 'if-none-match': '*' as const };
    const url = await this.presigner()({ bucket: this.bucket, key, headers, expiresInSeconds }).catch((error: unknown) => {
      throw new StoreUnavailableError(error);
    });
    return { url, headers };
  }
}
