import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../local/port-probe';
import { startPostgresLocal } from '../../local/postgres-local';

/**
 * PostgreSQL refuses root, so as root it runs as the postgres user, which must pass through every
 * folder above its data (and its binaries): a clone or LOCAL_DATA_DIR under /root or a `mktemp -d`
 * folder (0700) would stop it with EACCES.
 */
describe.runIf(userInfo().uid === 0)('PostgreSQL started as root', () => {
  it('runs with its data under a folder only root could pass through, and names the folder it opened', async () => {
    const closed = await mkdtemp(join(tmpdir(), 'grs-closed-'));
    const dataDir = join(closed, 'data');
    await mkdir(dataDir);
    expect((await stat(closed)).mode & 0o777).toBe(0o700);
    const notices: string[] = [];
    const engine = await startPostgresLocal({ dataDir, port: await freePort(), onNotice: (line) => notices.push(line) });
    try {
      const client = new pg.Client(engine.url);
      await client.connect();
      const { rows } = await client.query<{ user: string }>('SELECT current_user AS user');
      await client.end();
      expect(rows[0]!.user).toBe('postgres');
      expect(notices.join('\n')).toContain(closed);
      expect((await stat(closed)).mode & 0o777).toBe(0o701);
    } finally {
      await engine.stop();
      await rm(closed, { recursive: true, force: true });
    }
  }, 60_000);
});
