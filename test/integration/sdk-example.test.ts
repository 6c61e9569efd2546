import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { baseUrl, devClient } from './api-client';

/** examples/sdk-client.ts, run as a user runs it, against the local service. */
describe('the SDK example (@commercetools/ts-client)', () => {
  it('creates (and sends the create again with its Idempotency-Key), updates through the concurrent-modification middleware, reads by key and deletes', { timeout: 60_000 }, async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'examples/sdk-client.ts'],
        { env: { ...process.env, BASE_URL: baseUrl, PROJECT_KEY: 'demo', CLIENT_ID: devClient.clientId, CLIENT_SECRET: devClient.clientSecret }, timeout: 45_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^created sdk-example-\d+: version 1$/),
      'sent again with the same Idempotency-Key: the same answer',
      'updated after a stale version: version 2, someProperty "set through the SDK"',
      'read by key: id matches',
      'deleted: version 2',
    ]);
  });
});
