import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../local/stack';
import { measureBundles } from './bundles';
import { costPerMillion } from './cost';
import { api, type InvocationContext } from './function-invocations';
import { localOverhead } from './local-overhead';
import { MEMORY_PROJECT, memory } from './memory';
import { QUERY_AT_SCALE_SIZES, queryAtScale, scaleProjectOf } from './query-at-scale';
import { printQueryAtScale } from './query-at-scale-table';
import { throughput } from './throughput';
import { writePerformanceDoc } from './write-performance-doc';

/**
 * `npm run bench [-- part ...]`: starts the local stack on a fresh data directory and measures
 * every function's cold start (bundles), local overhead, throughput, the cost model and queries
 * at scale, or only the parts named; prints tables and writes bench/report.json (and from it
 * docs/performance.md, bench/write-performance-doc.ts), keeping the
 * parts of the previous report that this run did not measure. Figures are for this machine and
 * DynamoDB Local: they compare designs and catch regressions, they do not predict AWS latencies.
 */
const GOALS = { bundleKb: 250, coldStartMs: 60, overheadRatio: 1.3, usdPerMillion: 1.95 };
const PARTS = ['bundles', 'localOverhead', 'throughput', 'cost', 'queryAtScale', 'memory'] as const;
type Part = (typeof PARTS)[number];


const asked = process.argv.slice(2);
const unknown = asked.filter((part) => !(PARTS as readonly string[]).includes(part));
if (unknown.length) throw new Error(`Unknown bench part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
const parts = new Set<Part>(asked.length ? (asked as Part[]) : PARTS);

const reportFile = new URL('./report.json', import.meta.url);
const previous = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Record<string, unknown>) : {};

const dataDir = await mkdtemp(join(tmpdir(), 'grs-bench-'));
const client = { clientId: 'bench-client', clientSecret: 'bench-secret' };
const project = 'bench';
const stack = await startLocalStack({
  port: Number(process.env.BENCH_PORT ?? 18_181),
  host: '127.0.0.1',
  dataDir,
  devClient: { ...client, projectKeys: [project, MEMORY_PROJECT, ...QUERY_AT_SCALE_SIZES.map(scaleProjectOf)] },
  onProgress: (step) => console.log(`… ${step}`),
});

try {
  const token = await fetch(`${stack.url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  }).then(async (response) => ((await response.json()) as { access_token: string }).access_token);

  const measured: Record<string, unknown> = {};
  if (parts.has('bundles')) {
    console.log('… cold starts: building every function and invoking each in fresh Node.js 22 processes');
    const context: InvocationContext = { stack, token, project, client, resource: { id: '', key: 'cold-start' } };
    const { id } = await api(context, 'PUT', `/${project}/resource`, { key: 'cold-start', objectTypeProperty: { arrayOfIntExample: [1] } });
    context.resource.id = String(id);
    measured.bundles = await measureBundles(context);
  }
  if (parts.has('localOverhead')) {
    console.log('… local overhead');
    measured.localOverhead = await localOverhead(stack, token, project);
  }
  if (parts.has('throughput')) {
    console.log('… throughput (autocannon, 10 connections, 5 s each)');
    measured.throughput = await throughput(stack, token, project);
  }
  if (parts.has('cost')) {
    console.log('… cost model inputs');
    measured.cost = await costPerMillion(stack, token, project, client);
  }
  if (parts.has('memory')) {
    console.log('… memory: seeding 500 resources of ≈ 250 KB and asking for them at once under a 256 MB function\'s heap');
    measured.memory = await memory({ stack, token, project: MEMORY_PROJECT, client, resource: { id: '', key: '' } });
  }
  if (parts.has('queryAtScale')) {
    console.log('… queries at scale: seeding projects of each size and measuring the shapes against a GET by key');
    measured.queryAtScale = await queryAtScale(stack, token);
  }

  const report: Record<string, unknown> = {
    generatedAt: new Date().toISOString(),
    machine: { node: process.version, platform: `${process.platform}-${process.arch}` },
    goals: GOALS,
    // When each part was last measured: a run of some parts keeps the others from the report before.
    measuredAt: Object.fromEntries(
      PARTS.flatMap((part) => {
        const at = parts.has(part) ? new Date().toISOString() : (previous.measuredAt as Record<string, string> | undefined)?.[part];
        return at ? [[part, at]] : [];
      }),
    ),
  };
  for (const key of PARTS) report[key] = measured[key] ?? previous[key];
  await writeFile(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  printTables(report);
  writePerformanceDoc();
  console.log('\nwritten to bench/report.json and docs/performance.md');
} finally {
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}

function printTables(report: Record<string, unknown>) {
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const bundles = report.bundles as Awaited<ReturnType<typeof measureBundles>> | undefined;
  if (bundles) {
    console.log(`\nCold starts, Node.js ${bundles.node}, median of ${bundles.runs} processes (goal ≤ ${GOALS.bundleKb} KB and import + first call ≤ ${GOALS.coldStartMs} ms; empty bundle ${bundles.emptyInitMs} ms)\n`);
    console.log('| function | KB | import ms | first call ms | cold start ms | |');
    console.log('|---|---:|---:|---:|---:|---|');
    for (const [name, figures] of Object.entries(bundles.functions)) {
      const kb = Math.round(figures.bytes / 102.4) / 10;
      console.log(`| ${name} | ${kb} | ${figures.initMs} | ${figures.firstCallMs} | ${figures.coldStartMs} | ${mark(kb <= GOALS.bundleKb && figures.coldStartMs <= GOALS.coldStartMs)} |`);
    }
  }
  const overhead = report.localOverhead as Awaited<ReturnType<typeof localOverhead>> | undefined;
  if (overhead?.rounds) {
    console.log(`\nLocal overhead, GET by id, alternating (goal p50 ratio ≤ ${GOALS.overheadRatio})\n`);
    console.log('| round | via HTTP p50 | in-process p50 | raw GetItem p50 | empty HTTP exchange p50 | HTTP over the raw GetItem p50 | ratio | in-process ratio | floor ratio |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    overhead.rounds.forEach((round, index) =>
      console.log(
        `| ${index + 1} | ${round.viaHttp.p50Ms} | ${round.inProcess.p50Ms} | ${round.rawGetItem.p50Ms} | ${round.emptyHttpExchange.p50Ms} | ${round.httpOverGetItem.p50Ms} | ${round.p50Ratio} | ${round.inProcessP50Ratio} | ${round.floorP50Ratio} |`,
      ),
    );
    console.log(
      `worst round: ${overhead.p50Ratio} ${mark(overhead.p50Ratio <= GOALS.overheadRatio)} (any HTTP service over the raw GetItem: ${overhead.floorP50Ratio}); the gateway alone: ${overhead.gatewayAloneMicroseconds} µs per request`,
    );
  }
  const load = report.throughput as Awaited<ReturnType<typeof throughput>> | undefined;
  if (load) {
    console.log('\nThroughput through the local gateway\n');
    console.log('| load | req/s | p50 ms | p97.5 ms | non-2xx |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, figures] of Object.entries(load)) {
      console.log(`| ${name} | ${figures.requestsPerSecond} | ${figures.p50Ms} | ${figures.p97_5Ms} | ${figures.non2xx} |`);
    }
  }
  const cost = report.cost as Awaited<ReturnType<typeof costPerMillion>> | undefined;
  if (cost) {
    console.log(`\nCost per million calls, ${cost.mix} (goal ≤ $${GOALS.usdPerMillion})\n`);
    console.log('| item | USD |');
    console.log('|---|---:|');
    for (const [name, usd] of Object.entries(cost.usdPerMillion)) console.log(`| ${name} | ${usd} |`);
    console.log(`total ${mark(cost.usdPerMillion.total <= GOALS.usdPerMillion)}`);
  }
  const queries = report.queryAtScale as Awaited<ReturnType<typeof queryAtScale>> | undefined;
  if (queries) printQueryAtScale(queries);
}
