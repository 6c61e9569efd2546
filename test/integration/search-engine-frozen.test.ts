import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/port-probe';
import { LOCAL_SEARCH_INDEX_FAILURES_BUCKET, startLocalStack, type LocalStack } from '../../local/stack';
import { draftExample } from './api-client';

/**
 * The search engine frozen (SIGSTOP, as a cluster that stops answering: failover, maintenance) for
 * 45 s while the API takes a stream of creates, updates and deletes: searches answer 503 with
 * Retry-After meanwhile, every other endpoint answers as usual, and once the engine is back the
 * stream's batches, never given up, leave the index equal to the table within seconds — nothing
 * replayed by hand. On a stack of its own (in this process): the suite's stack serves the other files.
 */
const PROJECT = 'frozen';
const FROZEN_MS = 45_000;
const client = { clientId: 'frozen-client', clientSecret: 'frozen-secret' };
let stack: LocalStack;
let dataDir: string;
let token: string;
let frozen: number[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'grs-frozen-'));
  stack = await startLocalStack({ port: await freePort(), host: '127.0.0.1', dataDir, devClient: { ...client, projectKeys: [PROJECT] } });
  const answer = await fetch(`${stack.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
}, 120_000);

afterAll(async () => {
  thaw();
  const { searchPool } = await import('../../shared/composition-root');
  await searchPool().end();
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}, 60_000);

/** PostgreSQL's postmaster (the first line of its pid file) and every process it started. */
function freeze(): void {
  const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  frozen = [postmaster, ...children];
  for (const pid of frozen) process.kill(pid, 'SIGSTOP');
}

function thaw(): void {
  for (const pid of frozen) process.kill(pid, 'SIGCONT');
  frozen = [];
}

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.url}/${PROJECT}/resource${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json().catch(() => undefined)) as Record<string, unknown> };
}

/** What the index holds of the project: id → version of each resource not deleted (read from the engine itself). */
async function indexed(): Promise<Map<string, number>> {
  const { searchPool } = await import('../../shared/composition-root');
  const { rows } = await searchPool().query<{ id: string; version: number }>('SELECT id, version FROM search_resources WHERE project_key = $1 AND NOT deleted', [PROJECT]);
  return new Map(rows.map(({ id, version }) => [id, version]));
}

describe('the search engine frozen for 45 s', () => {
  it('answers searches 503 with Retry-After, every other endpoint as usual, and indexes every change once it is back', async () => {
    const before: string[] = [];
    for (let index = 0; index < 20; index++) before.push((await call('POST', '', { key: `before-${index}`, objectTypeProperty: draftExample.objectTypeProperty })).body.id as string);
    expect((await call('GET', '/searchApiPattern?limit=1')).status).toBe(200);

    freeze();
    const frozenAt = Date.now();
    const others: number[] = [];
    const searches: { status: number; retryAfter: string | null }[] = [];
    // 500 changes by four writers, each on resources of its own: creates, then updates and deletes among them.
    const written = [0, 1, 2, 3].map(() => new Map<string, number>());
    const writer = async (mine: Map<string, number>) => {
      for (let step = 0; step < 125; step++) {
        const id = [...mine.keys()][(step * 7) % Math.max(1, mine.size)];
        if (step % 5 < 3 || mine.size < 5) {
          const created = await call('POST', '', { objectTypeProperty: draftExample.objectTypeProperty });
          others.push(created.status);
          if (created.status === 201) mine.set(created.body.id as string, 1);
        } else if (step % 5 === 3) {
          const version = mine.get(id!)!;
          const updated = await call('POST', `/${id}`, { version, actions: [{ action: 'changeSomeProperty', someProperty: `step ${step}` }] });
          others.push(updated.status);
          mine.set(id!, version + 1);
        } else {
          others.push((await call('DELETE', `/${id}?version=${mine.get(id!)}`)).status);
          mine.delete(id!);
        }
      }
    };
    const reads = async () => {
      for (let index = 0; Date.now() - frozenAt < FROZEN_MS - 6_000; index++) {
        searches.push(await call('GET', '/searchApiPattern?limit=1'));
        others.push((await call('GET', `/${before[index % before.length]}`)).status, (await call('GET', '?limit=5')).status);
      }
    };
    await Promise.all([...written.map(writer), reads()]);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, FROZEN_MS - (Date.now() - frozenAt))));
    thaw();

    expect(searches.length).toBeGreaterThan(2);
    expect(searches.filter((search) => search.status !== 503 || search.retryAfter === null)).toEqual([]);
    expect(others.filter((status) => status >= 300)).toEqual([]);
    const live = new Map([...before.map((id) => [id, 1] as const), ...written.flatMap((mine) => [...mine])]);
    const backAt = Date.now();
    for (let held = await indexed(); !sameEntries(held, live); held = await indexed()) {
      if (Date.now() - backAt > 20_000) throw new Error(`the index holds ${held.size} resources, the table ${live.size}, 20 s after the engine came back`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await call('GET', '/searchApiPattern?limit=1')).body.total).toBe(live.size);
    // Nothing given up or set aside: every batch waited for the engine.
    const { s3 } = await import('../../shared/composition-root');
    expect((await s3().send(new ListObjectsV2Command({ Bucket: LOCAL_SEARCH_INDEX_FAILURES_BUCKET }))).KeyCount).toBe(0);
  }, 240_000);
});

const sameEntries = (a: Map<string, number>, b: Map<string, number>) => a.size === b.size && [...a].every(([id, version]) => b.get(id) === version);
