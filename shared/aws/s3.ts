import { S3Client } from '@aws-sdk/client-s3';

let client: S3Client | undefined;

/**
 * The S3 client of this function instance, created on first use (functions that never touch S3
 * do not pay for it). Against the local emulator (AWS_ENDPOINT_URL_S3 set) it addresses buckets
 * by path and sends checksums only when required, so uploads are stored without aws-chunked framing.
 */
export function s3(): S3Client {
  const local = Boolean(process.env.AWS_ENDPOINT_URL_S3);
  return (client ??= new S3Client(local ? { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' } : {}));
}
