import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../local/stack';
import { measureBundles } from './bundles';
import { costPerMillion } from './cost';
import { localOverhead } from './local-overhead';
import { queryAtScale } from './query-at-scale';
import { printQueryAtScale, runQueryAtScaleOnly } from './query-at-scale-run';
import { throughput } from './throughput';

/**
 * `npm run bench`: builds and measures every function's bundle, then starts the local stack on a
 * fresh data directory and measures local overhead, throughput, the cost model's inputs and
 * queries at scale. Prints tables and writes bench/report.json. Figures are for this machine and
 * DynamoDB Local: they compare designs and catch regressions, they do not predict AWS latencies.
 */
const GOALS = { bundleKb: 250, initMs: 60, overheadRatio: 1.3, usdPerMillion: 1.6 };

// `npm run bench -- query-at-scale`: only that part (the full run takes long).
if (process.argv.includes('query-at-scale')) {
  await runQueryAtScaleOnly();
  process.exit(0);
}

console.log('… building and timing bundles');
const bundles = await measureBundles();

const dataDir = await mkdtemp(join(tmpdir(), 'grs-bench-'));
const clientSecret = 'bench-secret';
const project = 'bench';
const stack = await startLocalStack({
  port: 18_181,
  host: '127.0.0.1',
  dataDir,
  devClient: { clientId: 'bench-client', clientSecret, projectKeys: [project] },
  onProgress: (step) => console.log(`… ${step}`),
});

try {
  const token = await fetch(`${stack.url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`bench-client:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  }).then(async (response) => ((await response.json()) as { access_token: string }).access_token);

  console.log('… local overhead');
  const overhead = await localOverhead(stack, token, project);
  console.log('… throughput (autocannon, 10 connections, 5 s each)');
  const load = await throughput(stack, token, project);
  console.log('… cost model inputs');
  const cost = await costPerMillion(stack, token, project);
  console.log('… queries at scale');
  const queries = await queryAtScale(stack, token);

  const report = {
    generatedAt: new Date().toISOString(),
    machine: { node: process.version, platform: `${process.platform}-${process.arch}` },
    goals: GOALS,
    bundles,
    localOverhead: overhead,
    throughput: load,
    cost,
    queryAtScale: queries,
  };
  await writeFile(new URL('./report.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);

  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(`\nBundles (goal ≤ ${GOALS.bundleKb} KB, init ≤ ${GOALS.initMs} ms; empty bundle init ${bundles.emptyInitMs} ms)\n`);
  console.log('| function | KB | init ms | |');
  console.log('|---|---:|---:|---|');
  for (const [name, figures] of Object.entries(bundles.functions)) {
    const kb = Math.round(figures.bytes / 102.4) / 10;
    console.log(`| ${name} | ${kb} | ${figures.initMs} | ${mark(kb <= GOALS.bundleKb && figures.initMs <= GOALS.initMs)} |`);
  }
  console.log(`\nLocal overhead, GET by id (goal p50 ratio ≤ ${GOALS.overheadRatio})\n`);
  console.log('| path | p50 ms | p95 ms |');
  console.log('|---|---:|---:|');
  console.log(`| local gateway + handler | ${overhead.viaGateway.p50Ms} | ${overhead.viaGateway.p95Ms} |`);
  console.log(`| in-process gateway + handler (no client socket) | ${overhead.inProcessGatewayAndHandler.p50Ms} | ${overhead.inProcessGatewayAndHandler.p95Ms} |`);
  console.log(`| raw GetItem | ${overhead.rawGetItem.p50Ms} | ${overhead.rawGetItem.p95Ms} |`);
  console.log(`| ratio over HTTP | ${overhead.p50Ratio} | ${overhead.p95Ratio} | ${mark(overhead.p50Ratio <= GOALS.overheadRatio)}`);
  console.log(`| ratio in-process | ${overhead.inProcessP50Ratio} | | ${mark(overhead.inProcessP50Ratio <= GOALS.overheadRatio)}`);
  console.log('\nThroughput through the local gateway\n');
  console.log('| load | req/s | p50 ms | p97.5 ms | non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, figures] of Object.entries(load)) {
    console.log(`| ${name} | ${figures.requestsPerSecond} | ${figures.p50Ms} | ${figures.p97_5Ms} | ${figures.non2xx} |`);
  }
  console.log(`\nCost per million calls, ${cost.mix} (goal ≤ $${GOALS.usdPerMillion})\n`);
  console.log('| line | USD |');
  console.log('|---|---:|');
  for (const [name, usd] of Object.entries(cost.usdPerMillion)) console.log(`| ${name} | ${usd} |`);
  printQueryAtScale(queries);
  console.log('\nwritten to bench/report.json');
} finally {
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
