import { execFile } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl } from './api-client';
import { localStore } from './test-clients';

/** `npm run smoke` against the local test stack, run as a child process as an operator runs it. */
const dataDir = inject('dataDir');

function smoke(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { TABLE_NAME: _table, AWS_ENDPOINT_URL_DYNAMODB: _endpoint, LOCAL_DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/smoke.ts', ...args],
      { env: { ...inherited, LOCAL_DATA_DIR: dataDir }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const temporaryClients = async () => (await localStore().list()).filter((client) => client.clientId.startsWith('smoke-'));

describe('npm run smoke -- --url <base>', () => {
  it('runs every step against the local stack, prints a table, exits 0 and leaves no client behind', { timeout: 90_000 }, async () => {
    const run = await smoke(['--url', baseUrl]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => /\s(ok|FAILED)$/.test(line));
    expect(rows.map((row) => row.split(/\s{2,}/)[0])).toEqual([
      'token (client credentials)',
      'create a subscription',
      'delete it at version 1',
      'create',
      'read by id',
      'read by key',
      'update at version 1',
      'stale update at version 1',
      'query by key',
      'search by text',
      'delete at version 2',
      'remove the temporary client',
    ]);
    expect(rows.every((row) => row.endsWith(' ok'))).toBe(true);
    expect(run.stdout).toMatch(/stale update at version 1\s+409\s+409\s/);
    expect(run.stdout).toContain('All checks passed.');
    expect(await temporaryClients()).toEqual([]);
  });

  it('exits non-zero when the API does not answer, and still removes its client', { timeout: 90_000 }, async () => {
    const run = await smoke(['--url', 'http://127.0.0.1:9', '--project', 'demo']);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/token \(client credentials\)\s+200\s+no answer.*FAILED/);
    expect(run.stdout).toMatch(/create\s+201\s+skipped\s+0\s+FAILED/);
    expect(await temporaryClients()).toEqual([]);
  });

  it('refuses to run without a target (usage, exit 2)', async () => {
    const run = await smoke([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Give --stack <StackName> or --url <base URL>.');
  });
});
