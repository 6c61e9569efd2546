import { S3Client } from '@aws-sdk/client-s3';

let client: S3Client | undefined;
let presigningClient: S3Client | undefined;

const local = () => Boolean(process.env.AWS_ENDPOINT_URL_S3);

/**
 * The S3 client of this function instance, created on first use (functions that never touch S3
 * do not pay for it). Against the local emulator (AWS_ENDPOINT_URL_S3 set) it addresses buckets
 * by path and sends checksums only when required, so uploads are stored without aws-chunked framing.
 */
export function s3(): S3Client {
  return (client ??= new S3Client(local() ? { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' } : {}));
}

/**
 * The client that presigns upload URLs. It never adds checksums: by default the SDK would put the
 * CRC32 of the (empty) body it signs into the URL, and S3 would then refuse every real upload.
 */
export function s3ForPresigning(): S3Client {
  return (presigningClient ??= new S3Client({ ...(local() ? { forcePathStyle: true } : {}), requestChecksumCalculation: 'WHEN_REQUIRED' }));
}
