import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { StoreUnavailableError } from '../../domain/errors';
import type { ImageStorage, StoredObject } from '../image-storage';

/** Image objects are never changed once written: caches may keep them for good. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Images in a private S3 bucket, served from `baseUrl` (a CloudFront distribution in AWS, the
 * local image server locally), and pending uploads in a second private bucket that nothing serves.
 * Any S3 failure is StoreUnavailableError: the upload answers 503 and nothing is recorded.
 * The client is asked for on first use.
 */
export class S3ImageStorage implements ImageStorage {
  constructor(
    private readonly client: () => S3Client,
    private readonly bucket: string,
    private readonly baseUrl: string,
    /** Pending two-step uploads: no CDN origin, expired by a lifecycle rule. */
    private readonly pendingBucket: string,
  ) {}

  private get s3(): S3Client {
    return this.client();
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.s3
      .send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length, CacheControl: CACHE_CONTROL }))
      .catch(unavailable);
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(unavailable);
  }

  urlOf(key: string): string {
    return `${this.baseUrl.replace(/\/$/, '')}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  async headPending(key: string): Promise<StoredObject | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.pendingBucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType };
    } catch (error) {
      if (isMissing(error)) return undefined;
      return unavailable(error);
    }
  }

  async readPending(key: string, maxBytes?: number): Promise<Buffer | undefined> {
    try {
      const object = await this.s3.send(
        new GetObjectCommand({ Bucket: this.pendingBucket, Key: key, ...(maxBytes === undefined ? {} : { Range: `bytes=0-${maxBytes - 1}` }) }),
      );
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return undefined;
      return unavailable(error);
    }
  }

  /** Copies the checked object server-side (no bytes through the function), setting what served images carry. */
  async publishPending(pendingKey: string, key: string, contentType: string): Promise<void> {
    await this.s3
      .send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: key,
          CopySource: `${this.pendingBucket}/${pendingKey.split('/').map(encodeURIComponent).join('/')}`,
          MetadataDirective: 'REPLACE',
          ContentType: contentType,
          CacheControl: CACHE_CONTROL,
        }),
      )
      .catch(unavailable);
  }

  async deletePending(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.pendingBucket, Key: key })).catch(unavailable);
  }
}

function unavailable(error: unknown): never {
  throw new StoreUnavailableError(error);
}

/** S3 says 404 (`NotFound` to HEAD, `NoSuchKey` to GET) when the function may list the bucket, else 403. */
function isMissing(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}
