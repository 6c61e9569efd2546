import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { BRAKE } from '../../shared/domain/auth/brute-force-brake';
import { call } from './api-client';
import { basic, introspect, localStore, requestToken } from './test-clients';

/**
 * `npm run client` against the local test stack, run as a child process exactly as an operator
 * runs it; it finds the stack through <LOCAL_DATA_DIR>/endpoints.json.
 */

const dataDir = inject('dataDir');
const emptyDir = mkdtempSync(join(tmpdir(), 'grs-cli-'));
afterAll(() => rmSync(emptyDir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string | undefined> = { LOCAL_DATA_DIR: dataDir }): Promise<Run> {
  const { TABLE_NAME: _table, AWS_ENDPOINT_URL_DYNAMODB: _endpoint, LOCAL_DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/client-cli.ts', ...args],
      { env: { ...inherited, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function createJson(args: string[]): Promise<{ clientId: string; clientSecret: string; scopes: string[]; name: string }> {
  const run = await cli(['create', ...args, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

const tokenOf = async (clientId: string, secret: string) => requestToken(basic(clientId, secret));

describe('npm run client -- create', () => {
  it('prints the client id and the secret once; the client gets tokens for exactly its scopes', async () => {
    const created = await createJson(['--project', 'demo', '--scopes', 'manage_test view_test', '--name', 'cli test']);
    expect(created).toMatchObject({ name: 'cli test', scopes: ['manage_test:demo', 'view_test:demo'] });
    expect(created.clientSecret.length).toBeGreaterThanOrEqual(40);

    const token = await tokenOf(created.clientId, created.clientSecret);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('manage_test:demo view_test:demo');
    expect((await call('GET', '/demo/resource/key=cli-none', { token: token.body.access_token })).status).toBe(404);
    expect((await call('GET', '/other/resource/key=cli-none', { token: token.body.access_token })).status).toBe(403);

    // Stored as a salted hash only.
    const stored = await localStore().get(created.clientId);
    expect(stored?.secretHash).toMatch(/^hmac-sha256\$/);
    expect(stored?.secretHash).not.toContain(created.clientSecret);
  });

  it('prints a readable answer without --json, the secret included once', async () => {
    const run = await cli(['create', '--scopes', 'view_test:demo,manage_products:other']);
    expect(run.code, run.stderr).toBe(0);
    const clientId = /client_id:\s+(\S+)/.exec(run.stdout)?.[1];
    const secret = /client_secret:\s+(\S+)/.exec(run.stdout)?.[1];
    expect(clientId && secret).toBeTruthy();
    expect(run.stdout.split(secret!).length - 1).toBeGreaterThanOrEqual(1);
    expect((await tokenOf(clientId!, secret!)).body.scope).toBe('view_test:demo manage_products:other');
  });

  it('refuses scopes outside the grammar and creates nothing', async () => {
    const before = (await localStore().list()).length;
    for (const scopes of ['manage_test', 'admin:demo', 'manage_test:demo manage_test:*', 'MANAGE_TEST:demo', 'manage_test:d', '']) {
      const run = await cli(['create', '--scopes', scopes]);
      expect(run.code, scopes).toBe(1);
      expect(run.stderr).toMatch(/scope/i);
    }
    expect((await cli(['create', '--project', 'bad key!', '--scopes', 'manage_test'])).code).toBe(1);
    expect((await localStore().list()).length).toBe(before);
  });
});

describe('npm run client -- list, revoke, unlock', () => {
  it('lists clients without secrets or hashes, filtered by project', async () => {
    const created = await createJson(['--project', 'listed', '--scopes', 'view_test']);
    const run = await cli(['list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/hmac-sha256|scrypt|secret/i);
    expect(run.stdout).not.toContain(created.clientSecret);
    const listed = JSON.parse(run.stdout) as { clientId: string; status: string; scopes: string[] }[];
    expect(listed.find((client) => client.clientId === created.clientId)).toMatchObject({ status: 'active', scopes: ['view_test:listed'] });

    const filtered = JSON.parse((await cli(['list', '--project', 'listed', '--json'])).stdout) as { scopes: string[] }[];
    expect(filtered.length).toBeGreaterThanOrEqual(1);
    for (const client of filtered) expect(client.scopes.some((scope) => scope.endsWith(':listed'))).toBe(true);

    const text = await cli(['list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(created.clientId);
    expect(text.stdout).not.toMatch(/hmac-sha256|scrypt/);
  });

  it('revoke: the client gets no new tokens, its tokens introspect inactive, list says revoked', async () => {
    const created = await createJson(['--project', 'demo', '--scopes', 'view_test']);
    const token = (await tokenOf(created.clientId, created.clientSecret)).body.access_token as string;
    const introspector = await createJson(['--project', 'demo', '--scopes', 'introspect_oauth_tokens']);
    const asIntrospector = basic(introspector.clientId, introspector.clientSecret);
    expect((await introspect(asIntrospector, `token=${token}`)).body.active).toBe(true);

    const run = await cli(['revoke', created.clientId]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Revoked');
    // What really happens: the authorizer's cached verdicts end within 300 s (not at the tokens' expiry).
    expect(run.stdout).toContain('within 5 minutes (300 s)');

    const refused = await tokenOf(created.clientId, created.clientSecret);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    expect((await introspect(asIntrospector, `token=${token}`)).body).toEqual({ active: false });
    const listed = JSON.parse((await cli(['list', '--json'])).stdout) as { clientId: string; status: string; revokedAt?: string }[];
    expect(listed.find((client) => client.clientId === created.clientId)).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
  });

  it('revoke or unlock of an unknown client: exit code 1', async () => {
    for (const command of ['revoke', 'unlock']) {
      const run = await cli([command, 'no-such-client']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('No client');
    }
  });

  it('unlock: a client braked for a source by the brute-force brake gets tokens there again', async () => {
    const created = await createJson(['--project', 'demo', '--scopes', 'view_test']);
    for (let attempt = 0; attempt < BRAKE.maxAttempts; attempt++) {
      expect((await tokenOf(created.clientId, 'guess')).status).toBe(401);
    }
    // Braked: the right secret too is answered 429 (with Retry-After), never invalid_client.
    expect((await tokenOf(created.clientId, created.clientSecret)).status).toBe(429);
    // The brake holds per source, never for the client as a whole: list still says active.
    const listed = JSON.parse((await cli(['list', '--json'])).stdout) as { clientId: string; status: string }[];
    expect(listed.find((client) => client.clientId === created.clientId)).toMatchObject({ status: 'active' });

    expect((await cli(['unlock', created.clientId])).code).toBe(0);
    expect((await tokenOf(created.clientId, created.clientSecret)).status).toBe(200);
  });
});

describe('where the CLI finds the clients', () => {
  it('without endpoints.json, from TABLE_NAME and AWS_ENDPOINT_URL_DYNAMODB', async () => {
    const { dynamoDbEndpoint, tableName } = JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8'));
    const run = await cli(['list', '--json'], { LOCAL_DATA_DIR: emptyDir, TABLE_NAME: tableName, AWS_ENDPOINT_URL_DYNAMODB: dynamoDbEndpoint });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as unknown[]).length).toBeGreaterThan(0);
  });

  it('with neither, a usage error naming what is missing', async () => {
    const run = await cli(['list'], { LOCAL_DATA_DIR: emptyDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('endpoints.json');
  });
});
