import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { StoreUnavailableError } from '../errors';
import type { ImageStorage } from '../image-storage';

/**
 * Images in a private S3 bucket, served from `baseUrl` (a CloudFront distribution in AWS, the S3
 * emulator locally). Any S3 failure is StoreUnavailableError: the upload answers 503 and nothing
 * is recorded.
 */
export class S3ImageStorage implements ImageStorage {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly baseUrl: string,
  ) {}

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.s3
      .send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      )
      .catch((error: unknown) => {
        throw new StoreUnavailableError(error);
      });
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch((error: unknown) => {
      throw new StoreUnavailableError(error);
    });
  }

  urlOf(key: string): string {
    return `${this.baseUrl.replace(/\/$/, '')}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }
}
