import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../local/stack';
import { queryAtScale, SEEDED_RESOURCES } from './query-at-scale';

/**
 * `npm run bench`: starts the local stack on a fresh data directory, runs the benchmarks, prints
 * a table and writes bench/report.json. Figures are for this machine and DynamoDB Local; they
 * compare designs, they do not predict AWS latencies.
 */
const dataDir = await mkdtemp(join(tmpdir(), 'grs-bench-'));
const clientSecret = 'bench-secret';
const stack = await startLocalStack({
  port: 18_181,
  host: '127.0.0.1',
  dataDir,
  devClient: { clientId: 'bench-client', clientSecret, projectKeys: ['bench'] },
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

  console.log(`… seeding ${SEEDED_RESOURCES} resources and measuring queries`);
  const queries = await queryAtScale(stack, token);

  const report = {
    generatedAt: new Date().toISOString(),
    machine: { node: process.version, platform: `${process.platform}-${process.arch}` },
    queryAtScale: { resources: SEEDED_RESOURCES, measurements: queries },
  };
  await writeFile(new URL('./report.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);

  console.log(`\nQuery at scale (${SEEDED_RESOURCES} resources in one project, local gateway + DynamoDB Local)\n`);
  console.log('| query | p50 ms | p95 ms |');
  console.log('|---|---:|---:|');
  for (const [name, measurement] of Object.entries(queries)) console.log(`| ${name} | ${measurement.p50Ms} | ${measurement.p95Ms} |`);
  console.log('\nwritten to bench/report.json');
} finally {
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
