import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../local/stack';
import { queryAtScale } from './query-at-scale';

/**
 * `npm run bench -- query-at-scale`: only the queries at scale, on a local stack of their own,
 * written into bench/report.json as `queryAtScale` (the rest of the report is kept). The sizes
 * can be narrowed with QUERY_AT_SCALE_SIZES=1000,10000.
 */
export async function runQueryAtScaleOnly(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'grs-bench-scale-'));
  const clientSecret = 'bench-secret';
  const stack = await startLocalStack({
    port: 18_182,
    host: '127.0.0.1',
    dataDir,
    devClient: { clientId: 'bench-client', clientSecret, projectKeys: ['bench'] },
    onProgress: (step) => console.log(`… ${step}`),
  });
  try {
    const token = await tokenOf(stack.url, clientSecret);
    const figures = await queryAtScale(stack, token);
    const reportUrl = new URL('./report.json', import.meta.url);
    const report = JSON.parse(await readFile(reportUrl, 'utf8').catch(() => '{}')) as Record<string, unknown>;
    await writeFile(reportUrl, `${JSON.stringify({ ...report, queryAtScale: { generatedAt: new Date().toISOString(), ...figures } }, null, 2)}\n`);
    printQueryAtScale(figures);
  } finally {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function tokenOf(url: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`bench-client:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The table docs/performance.md shows: p50 ratio to a GET by key (and read units) per size, and the mock. */
export function printQueryAtScale(figures: Awaited<ReturnType<typeof queryAtScale>>): void {
  const sizes = Object.keys(figures.resources);
  console.log('\nQueries at scale: p50 ms, ratio to a GET by key of the same project, read units (status when not 200)\n');
  console.log(`| shape | ${sizes.map((size) => `${Number(size).toLocaleString('en')}`).join(' | ')} | labd mock ${figures.labdMock.size.toLocaleString('en')} |`);
  console.log(`|---|${sizes.map(() => '---:').join('|')}|---:|`);
  for (const shape of Object.keys(figures.resources[sizes[0]!]!)) {
    const cells = sizes.map((size) => {
      const cell = figures.resources[size]![shape]!;
      const status = cell.status === 200 ? '' : ` (${cell.status})`;
      return `${cell.p50Ms} ms, ×${cell.p50RatioToGetByKey}, ${cell.readUnits} RU${status}`;
    });
    const mock = figures.labdMock.shapes[shape];
    const mockCell = mock ? `${mock.p50Ms} ms, ×${mock.p50RatioToGetByKey}${mock.status === 200 ? '' : ` (${mock.status})`}` : '';
    console.log(`| ${shape} | ${cells.join(' | ')} | ${mockCell} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runQueryAtScaleOnly();
