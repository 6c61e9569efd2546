import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../local/stack';
import { closeSearchPools } from '../shared/composition-root';
import { measureBundles } from './bundles';
import { costPerMillion } from './cost';
import { api, type InvocationContext } from './function-invocations';
import { localOverhead } from './local-overhead';
import { MEMORY_PROJECT, memory } from './memory';
import { QUERY_AT_SCALE_SIZES, queryAtScale, scaleProjectOf } from './query-at-scale';
import { searchEngineAlone } from './search-engine-alone';
import { CATCH_UP_PROJECT, CAUGHT_UP_GOAL_MS, searchCatchUp } from './search-catch-up';
import { FRESHNESS_PROJECT, searchFreshness } from './search-freshness';
import { throughput } from './throughput';
import { writePerformanceDoc } from './write-performance-doc';

/**
 * `npm run bench [-- part ...]`: starts the local stack on a fresh data directory and measures
 * every function's cold start (bundles), local overhead, throughput, the cost model, queries and
 * searches at scale, how soon a write is searchable, whether the index keeps up with a bulk load,
 * and the search engine alone at a million resources, or only the parts named; prints tables and
 * writes bench/report.json (and from it docs/performance.md, bench/write-performance-doc.ts),
 * keeping the parts of the previous report that this run did not measure. Figures are for this
 * machine and DynamoDB Local: they compare designs and catch regressions, they do not predict AWS latencies.
 */
// What users can tell: a cold start's import, the price of the 80/20 mix, how soon a write is
// searchable (p95) and how soon after a bulk load; searches carry their ratio goals
// (search-corpus.ts); sizes are reported, not goals.
// initRatio: a function's init over that of a bundle holding only the DynamoDB client, in the same rounds.
const GOALS = { initRatio: 2.5, usdPerMillion: 1.95, searchableMs: 1000, caughtUpMs: CAUGHT_UP_GOAL_MS };
const PARTS = ['bundles', 'localOverhead', 'throughput', 'cost', 'queryAtScale', 'searchFreshness', 'searchCatchUp', 'searchEngineAlone', 'memory'] as const;
type Part = (typeof PARTS)[number];


const asked = process.argv.slice(2);
const unknown = asked.filter((part) => !(PARTS as readonly string[]).includes(part));
if (unknown.length) throw new Error(`Unknown bench part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
const parts = new Set<Part>(asked.length ? (asked as Part[]) : PARTS);

const reportFile = new URL('./report.json', import.meta.url);

const dataDir = await mkdtemp(join(tmpdir(), 'grs-bench-'));
const client = { clientId: 'bench-client', clientSecret: 'bench-secret' };
const project = 'bench';
const stack = await startLocalStack({
  port: Number(process.env.BENCH_PORT ?? 18_181),
  host: '127.0.0.1',
  dataDir,
  devClient: { ...client, projectKeys: [project, MEMORY_PROJECT, FRESHNESS_PROJECT, CATCH_UP_PROJECT, ...QUERY_AT_SCALE_SIZES.map(scaleProjectOf)] },
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
  if (parts.has('searchFreshness')) {
    console.log('… search freshness: writes through the API, searched for until they show');
    measured.searchFreshness = await searchFreshness(stack, token);
  }
  if (parts.has('searchCatchUp')) {
    console.log('… search catch-up: resources created through the API as fast as it takes them, the index counted until it holds them all');
    measured.searchCatchUp = await searchCatchUp(stack, token);
  }
  if (parts.has('searchEngineAlone')) {
    console.log('… the search engine alone: the corpus written straight into PostgreSQL, the searches asked of its adapter');
    measured.searchEngineAlone = await searchEngineAlone();
  }

  // Read at the end, so that a run of other parts that finished meanwhile keeps its figures.
  const previous = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Record<string, unknown>) : {};
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
  writePerformanceDoc();
  console.log('\nwritten to bench/report.json and docs/performance.md (its tables)');
} finally {
  // Closed before the engine stops, which ends the pool's idle connections under it.
  await closeSearchPools();
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
