import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { StoreUnavailableError } from '../../domain/errors';
import type { PendingUploadSigner, PresignedPut } from '../pending-upload-signer';

/**
 * Upload URLs for the pending-uploads bucket. Every header is signed: S3 refuses a PUT whose
 * content-type, content-length or if-none-match differ from these (the emulator does not check
 * signatures; completion checks anyway). A signing failure (no credentials) is 503.
 */
export class S3PendingUploadSigner implements PendingUploadSigner {
  constructor(
    private readonly bucket: string,
    /** A presigning client (shared/aws/s3.ts), asked for on the first URL. */
    private readonly client: () => S3Client,
  ) {}

  async presignPut(key: string, contentType: string, size: number, expiresInSeconds: number): Promise<PresignedPut> {
    const headers = { 'content-type': contentType, 'content-length': String(size), 'if-none-match': '*' };
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: size, IfNoneMatch: '*' });
    const url = await getSignedUrl(this.client(), command, { expiresIn: expiresInSeconds, signableHeaders: new Set(Object.keys(headers)) }).catch(
      (error: unknown) => {
        throw new StoreUnavailableError(error);
      },
    );
    return { url, headers };
  }
}
