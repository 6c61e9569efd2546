/** Where image bytes live (S3 in AWS, s3rver locally), and the address that serves them. */
export interface ImageStorage {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  urlOf(key: string): string;
}
