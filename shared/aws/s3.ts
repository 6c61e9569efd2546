import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
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

/**
 * The client that presigns upload URLs (it sends nothing). It never adds checksums: by default the
 * SDK would sign the CRC32 of the empty body it presigns into the URL, and S3 would then refuse
 * every real upload. `config` is for tests (region, credentials).
 */
export function createPresigningS3Client(config: S3ClientConfig = {}): S3Client {
  return withoutSdkLogging(new S3Client({ ...(local() ? { forcePathStyle: true } : {}), requestChecksumCalculation: 'WHEN_REQUIRED', ...config }));
}
