import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm start` stopped by a signal sent to its process alone (`kill`, a process manager), not to
 * its terminal's whole group as Ctrl-C is: it stops every engine it started before it exits.
 */
describe.each(['SIGTERM', 'SIGINT'] as const)('npm start sent %s', (signal) => {
  it('stops DynamoDB Local and PostgreSQL, then exits 0', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'grs-stop-'));
    try {
      const stack = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOCAL_DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      stack.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      stack.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((done) => stack.once('exit', (code) => done(code)));
      while (!output.includes('Ctrl-C stops it') && stack.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
      const engines = JSON.parse(await readFile(join(dataDir, 'endpoints.json'), 'utf8')) as { dynamoDbEndpoint: string; searchDatabaseUrl: string };

      stack.kill(signal);
      expect(await exited, output).toBe(0);
      expect(await answers(engines.dynamoDbEndpoint)).toBe(false);
      expect(await answers(engines.searchDatabaseUrl)).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  }, 90_000);
});

/** Whether anything still listens at the URL's host and port. */
function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
