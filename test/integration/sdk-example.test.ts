import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { baseUrl, call, devClient, draftExample, tokenFor } from './api-client';

/** An example run as a user runs it, against the local service. */
const runExample = (file: string, environment: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', file],
      { env: { ...process.env, BASE_URL: baseUrl, CLIENT_ID: devClient.clientId, CLIENT_SECRET: devClient.clientSecret, ...environment }, timeout: 45_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );

describe('the SDK examples (@commercetools/ts-client)', () => {
  it('creates (and sends the create again with its Idempotency-Key), updates through the concurrent-modification middleware, reads by key and deletes', { timeout: 60_000 }, async () => {
    const run = await runExample('examples/sdk-client.ts', { PROJECT_KEY: 'demo' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^created sdk-example-\d+: version 1$/),
      'sent again with the same Idempotency-Key: the same answer',
      'updated after a stale version: version 2, someProperty "set through the SDK"',
      'read by key: id matches',
      'deleted: version 2',
    ]);
  });

  it('walks a whole collection by cursor, page by page, in id order', { timeout: 60_000 }, async () => {
    const token = await tokenFor();
    for (let index = 0; index < 23; index++) {
      expect((await call('POST', '/sdk-walk/resource', { token, json: draftExample })).status).toBe(201);
    }
    const listed = await call('GET', '/sdk-walk/resource?limit=1', { token });
    const run = await runExample('examples/sdk-walk.ts', { PROJECT_KEY: 'sdk-walk', PAGE_SIZE: '5' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`walked ${listed.body.total} resources, in id order`);
    expect(listed.body.total).toBeGreaterThanOrEqual(23);
  });
});
