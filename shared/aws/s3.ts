import { S3Client } from '@aws-sdk/client-s3';
import { requestHandler } from './request-timeouts';
import { withoutSdkLogging } from './sdk-logging';

const local = () => Boolean(process.env.AWS_ENDPOINT_URL_S3);

/**
 * The S3 client; the composition root creates it on first use (functions that never touch S3 do
 * not pay for it). Against the local emulator (AWS_ENDPOINT_URL_S3 set) it addresses buckets by
 * path and sends checksums only when required, so uploads are stored without aws-chunked framing.
 */
export function createS3Client(): S3Client {
  return withoutSdkLogging(new S3Client({ requestHandler: requestHandler(), ...(local() ? { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' } : {}) }));
}
