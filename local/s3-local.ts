import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { ensurePortFree } from './port-probe';
import { uploadCorsXml } from './cors';

export interface RunningS3 {
  endpoint: string;
  /** The address objects of `bucket` are served from. */
  bucketUrl: string;
  stop(): Promise<void>;
}

/** Starts the S3 emulator s3rver with its objects under `dataDir`, and the service's buckets in it. */
export async function startS3Local(options: {
  dataDir: string;
  port: number;
  bucket: string;
  pendingBucket: string;
  /** Buckets that nothing serves (the search index's failure destination). */
  privateBuckets?: readonly string[];
  corsOrigins?: readonly string[];
}): Promise<RunningS3> {
  await ensurePortFree(options.port, 'the S3 emulator', 'S3_LOCAL_PORT', 8);
  const directory = resolve(options.dataDir, 's3');
  await mkdir(directory, { recursive: true });
  const server = new S3rver({
    port: options.port,
    address: '127.0.0.1',
    directory,
    silent: true,
    // Browsers of the CORS origins PUT presigned uploads to the pending-uploads bucket, as in AWS.
    configureBuckets: [
      { name: options.bucket, configs: [] },
      { name: options.pendingBucket, configs: options.corsOrigins?.length ? [uploadCorsXml(options.corsOrigins)] : [] },
      ...(options.privateBuckets ?? []).map((name) => ({ name, configs: [] })),
    ],
  });
  await server.run();
  // A CORS rule of an earlier start stays in the data directory unless removed.
  if (!options.corsOrigins?.length) await server.store.deleteSubresource(options.pendingBucket, undefined, 'cors');
  const endpoint = `http://127.0.0.1:${options.port}`;
  return { endpoint, bucketUrl: `${endpoint}/${options.bucket}`, stop: () => server.close() };
}
