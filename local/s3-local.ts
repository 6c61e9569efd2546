import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

export interface RunningS3 {
  endpoint: string;
  /** The address objects of `bucket` are served from. */
  bucketUrl: string;
  stop(): Promise<void>;
}

/** Starts the S3 emulator s3rver with its objects under `dataDir`, and the images and pending-uploads buckets in it. */
export async function startS3Local(options: { dataDir: string; port: number; bucket: string; pendingBucket: string }): Promise<RunningS3> {
  const directory = resolve(options.dataDir, 's3');
  await mkdir(directory, { recursive: true });
  const server = new S3rver({
    port: options.port,
    address: '127.0.0.1',
    directory,
    silent: true,
    configureBuckets: [options.bucket, options.pendingBucket].map((name) => ({ name, configs: [] })),
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${options.port}`;
  return {
    endpoint,
    bucketUrl: `${endpoint}/${options.bucket}`,
    stop: () => server.close(),
  };
}
