import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Starts the local stack exactly as `npm start` does — a separate process with DynamoDB Local,
 * the token service and the gateway — on free ports and a fresh data directory, once for the
 * integration suite.
 */
let stack: ChildProcess | undefined;
let dataDir: string | undefined;

export const DEV_CLIENT = { clientId: 'test-client', clientSecret: 'test-secret-123', projectKeys: ['demo', 'other', 'queries', 'scale', 'lastmod-small', 'lastmod-large', 'scale-ties', 'lastmod-ties', 'large-answers', 'sdk-walk', 'subscriptions', 'subscriptions-other', 'search-feed', 'search-differential', 'search-storefront', 'search-facets-300', 'search-facets-3000', 'storefront', 'storefront-ghosts', 'product-search-differential'] };

export async function setup(project: TestProject) {
  dataDir = await mkdtemp(join(tmpdir(), 'grs-test-'));
  const port = await freePort();
  // The origin of the page that calls the API from a browser (cors.test.ts): the only CORS origin.
  const browserOrigin = `http://localhost:${await freePort()}`;
  stack = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOCAL_DATA_DIR: dataDir,
      LOCAL_CLIENT_ID: DEV_CLIENT.clientId,
      LOCAL_CLIENT_SECRET: DEV_CLIENT.clientSecret,
      LOCAL_PROJECT_KEYS: DEV_CLIENT.projectKeys.join(','),
      CORS_ORIGINS: browserOrigin,
      // Failed subscription deliveries are retried within a second or so (subscriptions.test.ts).
      SUBSCRIPTION_RETRY_DELAY_MS: '200',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  stack.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  stack.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(baseUrl, () => output);
  // The banner follows the gateway's first answers by a moment; start-banner.test.ts runs its calls.
  while (!output.includes('Ctrl-C stops it') && stack.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
  project.provide('baseUrl', baseUrl);
  project.provide('startOutput', output);
  project.provide('dataDir', dataDir);
  project.provide('devClient', DEV_CLIENT);
  project.provide('browserOrigin', browserOrigin);
}

export async function teardown() {
  if (stack && stack.exitCode === null) {
    const exited = new Promise((done) => stack!.once('exit', done));
    stack.kill('SIGTERM');
    await exited;
  }
  // PostgreSQL may still be writing its last files as its process ends.
  if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

async function waitFor(baseUrl: string, output: () => string) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (stack?.exitCode !== null) throw new Error(`The local stack exited while starting:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/oauth/jwks`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The local stack did not start within 90 s:\n${output()}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    devClient: typeof DEV_CLIENT;
    /** What `npm start` printed until it was ready. */
    startOutput: string;
    browserOrigin: string;
  }
}
