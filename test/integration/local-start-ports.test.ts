import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * A second `npm start` whose chosen engine port is already served — by the running test stack's
 * DynamoDB Local, or by any listener — must stop with its own exit code, not borrow that engine.
 */
let dataDir: string;
let occupied: Server;
let occupiedPort: number;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'grs-second-start-'));
  occupied = createServer();
  await new Promise<void>((done) => occupied.listen(0, '127.0.0.1', done));
  occupiedPort = (occupied.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((done) => occupied.close(done));
  await rm(dataDir, { recursive: true, force: true });
});

function secondStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOCAL_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stopped = setTimeout(() => child.kill('SIGTERM'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(stopped);
      resolve({ code, output });
    }),
  );
}

describe('npm start with an engine port already taken', () => {
  it("DynamoDB Local on the port another instance's DynamoDB Local serves: exit 7, its own database untouched", async () => {
    const running = JSON.parse(await readFile(join(inject('dataDir'), 'endpoints.json'), 'utf8')) as { dynamoDbEndpoint: string };
    const port = new URL(running.dynamoDbEndpoint).port;

    const run = await secondStart({ DYNAMODB_LOCAL_PORT: port });
    expect(run.code, run.output).toBe(7);
    expect(run.output).toContain(`Port ${port} for DynamoDB Local is already in use`);
    expect(run.output).not.toContain('is running');
    expect(await readdir(join(dataDir, 'dynamodb')).catch(() => [])).toEqual([]);
  });

  it('DynamoDB Local on a port another program listens on: exit 7', async () => {
    const run = await secondStart({ DYNAMODB_LOCAL_PORT: String(occupiedPort) });
    expect(run.code, run.output).toBe(7);
    expect(run.output).toContain('DYNAMODB_LOCAL_PORT');
  });

  it('the S3 emulator on a port already in use: exit 8', async () => {
    const run = await secondStart({ S3_LOCAL_PORT: String(occupiedPort) });
    expect(run.code, run.output).toBe(8);
    expect(run.output).toContain(`Port ${occupiedPort} for the S3 emulator is already in use`);
    expect(run.output).toContain('S3_LOCAL_PORT');
  });
});

describe('npm start with a LOCAL_CLIENT_ID no client can have', () => {
  it('exit 9 before anything starts: authentication would never look that id up', async () => {
    const emptyDir = await mkdtemp(join(tmpdir(), 'grs-bad-client-id-'));
    try {
      const run = await secondStart({ LOCAL_CLIENT_ID: 'dev client', LOCAL_DATA_DIR: emptyDir });
      expect(run.code, run.output).toBe(9);
      expect(run.output).toContain("LOCAL_CLIENT_ID 'dev client' is not a client id");
      expect(await readdir(emptyDir)).toEqual([]);
    } finally {
      await rm(emptyDir, { recursive: true, force: true });
    }
  });
});
