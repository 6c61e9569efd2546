/** Where image bytes live (S3 in AWS, s3rver locally), and the address that serves them. */
export interface ImageStorage {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  urlOf(key: string): string;
  /**
   * A URL that lets its holder PUT this one object, once (`if-none-match: *`), with exactly this
   * content type and length, until it expires; and the headers the PUT must carry (they are signed).
   */
  presignPut(key: string, contentType: string, size: number, expiresInSeconds: number): Promise<PresignedPut>;
  /** The object's size and content type; undefined when there is no such object. */
  head(key: string): Promise<StoredObject | undefined>;
  /** The object's bytes (its first `maxBytes` when given); undefined when there is no such object. */
  read(key: string, maxBytes?: number): Promise<Buffer | undefined>;
}

export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}

export interface StoredObject {
  size: number;
  contentType: string | undefined;
}
