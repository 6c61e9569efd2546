import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MIX, round, searchCost } from './cost-model';

/**
 * `npm run perf-doc` (and the end of `npm run bench`): docs/performance.md and its chart,
 * docs/query-at-scale.svg, written from bench/report.json alone, so that no figure is typed by hand.
 * Renders the parts the report holds, and skips the ones it does not.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const CHART_FILE = 'query-at-scale.svg';

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const n = (value: number) => value.toLocaleString('en');
const row = (cells: unknown[]) => `| ${cells.join(' | ')} |`;
const table = (head: string[], align: string, rows: unknown[][]) => [row(head), `|${align}|`, ...rows.map(row)].join('\n');
const met = (ok: boolean) => (ok ? 'ok' : '**over**');

const INTRO = `# Performance and cost

<!-- Written by \`npm run perf-doc\` from bench/report.json (also at the end of \`npm run bench\`); do not edit. -->

\`npm run bench [-- part ...]\` starts the local stack (the same handlers, DynamoDB Local, PostgreSQL
for search, the S3 emulator) on a fresh data directory, measures, and writes \`bench/report.json\`;
this page is generated from that report. The figures come from one machine and local engines: they
compare designs and catch regressions, they do not predict AWS latencies. DynamoDB round trips per operation
are not measured but tested exactly (\`test/integration/round-trips.test.ts\`). A run of some parts
keeps the others' figures from the previous report; each part says when it was measured.`;

function bundles(report: Json): string {
  const b = report.bundles;
  const goals = report.goals ?? {};
  // Init over the DynamoDB client's alone, both measured in the same rounds (absolute times swing with the machine).
  const bound = goals.initRatio * b.dynamoDbClientInitMs;
  const rows = Object.entries<Json>(b.functions).map(([name, f]) => [
    name, kb(f.bytes), f.initMs, f.firstCallMs, f.coldStartMs, round(f.initMs / b.dynamoDbClientInitMs),
    met(f.initMs <= bound),
    Object.entries<number>(f.carries ?? {}).map(([part, bytes]) => `${part} ${kb(bytes)}`).join(', '),
  ]);
  return `## Bundles and cold starts

Each function bundled as the stack bundles it, imported (init) and invoked once (first call) in
fresh Node.js ${b.node} processes, median of ${b.runs}; in the same rounds an empty bundle imports in
${b.emptyInitMs} ms and one holding only the DynamoDB document client in ${b.dynamoDbClientInitMs} ms.
Goal: init ≤ ${goals.initRatio}× the DynamoDB client's (≤ ${round(bound)} ms in this run). Size is reported, not a goal.

${table(['function', 'KB', 'init ms', 'first call ms', 'cold start ms', 'init ÷ DynamoDB client', 'goal', 'KB by package'], '---|---:|---:|---:|---:|---:|---|---', rows)}`;
}

function localOverhead(report: Json): string {
  const o = report.localOverhead;
  const rows = (o.rounds ?? []).map((r: Json, i: number) => [
    i + 1, r.viaHttp.p50Ms, r.inProcess.p50Ms, r.rawGetItem.p50Ms, r.emptyHttpExchange.p50Ms, r.p50Ratio, r.inProcessP50Ratio, r.floorP50Ratio,
  ]);
  return `## Local overhead

A GET by id through the local gateway, against the same handler called in process and the raw
\`GetItem\` alone, alternating, ${o.runsPerRound} calls per round (p50 ms); "floor" is what any HTTP
service adds over the raw \`GetItem\`.

${table(['round', 'via HTTP', 'in process', 'raw GetItem', 'empty HTTP exchange', 'ratio', 'in-process ratio', 'floor ratio'], '---|---:|---:|---:|---:|---:|---:|---:', rows)}

Worst round: ${o.p50Ratio}; the gateway alone adds ${o.gatewayAloneMicroseconds} µs per request.`;
}

function throughput(report: Json): string {
  const rows = Object.entries<Json>(report.throughput).map(([load, f]) => [load, f.requestsPerSecond, f.p50Ms, f.p97_5Ms, f.non2xx, f.errors]);
  return `## Throughput

Through the local gateway (autocannon, 10 connections).

${table(['load', 'req/s', 'p50 ms', 'p97.5 ms', 'non-2xx', 'errors'], '---|---:|---:|---:|---:|---:', rows)}`;
}

function cost(report: Json): string {
  const c = report.cost;
  const goal = report.goals?.usdPerMillion;
  const { total, ...items } = c.usdPerMillion as Record<string, number>;
  const options = (title: string, values: Record<string, number> | undefined) =>
    values ? `\n\n${title}: ${Object.entries(values).map(([name, usd]) => `${name} $${usd}`).join(', ')} per million calls.` : '';
  const assumptions = Object.entries<unknown>(c.assumptions ?? {}).map(([name, value]) => `\`${name}\` ${JSON.stringify(value)}`);
  // Each update is a change the search index takes: what a million calls cost with search kept current.
  const changes = searchCost().usdPerMillionChanges.total;
  const indexing = round(MIX.writes * changes, 4);
  return `## Cost per million calls

${c.mix}; each item from what the run measured per operation (Lambda time, log bytes, read and
write units, answer bytes) at the list prices in \`bench/cost-model.ts\`. Assumptions: ${assumptions.join('; ')}.

${table(['item', 'USD per million calls'], '---|---:', [
    ...Object.entries(items),
    ['**calls**', `**${total}**`],
    ['goal (calls)', `≤ ${goal} (${met(total! <= goal)})`],
    [`the search index of their changes (the ${MIX.writes * 100}% updates, $${changes} per million: modelled below)`, indexing],
    ['**total, search kept current**', `**${round(total! + indexing, 4)}**`],
  ])}${options('API Gateway access log', c.accessLogOptions)}${options('X-Ray tracing', c.tracingOptions)}${c.imagesNote ? `\n\nImages: ${c.imagesNote}.` : ''}`;
}

/** The search engine's cost: a model (bench/cost-model.ts `searchCost`), the cluster being AWS's alone. */
function searchEngineCost(): string {
  const search = searchCost();
  const a = search.assumptions;
  const change = search.usdPerMillionChanges;
  return `## Search engine cost (modelled)

Aurora PostgreSQL Serverless v2 at the list prices in \`bench/cost-model.ts\` (ACU-hours, GB-months, I/O
requests); the work per operation is assumed, not measured: ${Object.entries<unknown>(a).map(([name, value]) => `\`${name}\` ${value}`).join('; ')}.

${table(['', 'USD'], '---|---:', [
    ['unused, per month: paused throughout (the master secret, search\'s alarms)', search.unusedUsdPerMonth],
    [
      `in use, at idle: the same, and each use (a burst of searches or changes) keeps it awake until ${search.awakeMinutesAfterUse} minutes after its last statement (its connections close within a minute, then ${search.awakeMinutesAfterUse - 1} idle minutes before the pause), per use`,
      `+ ${search.usdPerUse}`,
    ],
    ['in use once an hour, day and night, per month (awake a tenth of the time)', search.usedHourlyUsdPerMonth],
    ['storage per month, per 100,000 resources', search.storageUsdPerMonthPer100kResources],
    ['awake, per hour (at least)', search.awakeUsdPerHour],
    ['kept awake (`-c searchMinCapacity=0.5`), per month', search.alwaysAwakeUsdPerMonth],
    [`per million changes indexed (engine I/O ${change.engineIo}, ACU ${change.engineAcu}, indexer ${round2(change.lambdaRequests + change.lambdaCompute)})`, change.total],
    ['per million searches selecting a page (engine)', search.usdPerMillionSearches.page],
    ['per million facets or totals over 100,000 resources (engine)', search.usdPerMillionSearches.wholeProject],
  ])}`;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function memory(report: Json): string {
  const m = report.memory;
  const rows = m.rows.map((r: Json) => [r.request, r.acceptEncoding, r.status, r.peakRssMb ?? '', r.heapMb ?? '', r.ms ?? '', r.message ?? '']);
  return `## Pages of large resources

${m.resources} resources of ≈ ${m.resourceKb} KB (random text, near DynamoDB's 400 KB item limit) asked for at once: the
query and search functions' bundles in fresh Node.js 22 processes with a 256 MB function's heap
(\`${m.flags}\`), against DynamoDB Local. Peak RSS of the process and the heap V8 grew to, in MB.

${table(['request', 'Accept-Encoding', 'status', 'peak RSS MB', 'heap MB', 'ms', 'told'], '---|---|---|---:|---:|---:|---', rows)}`;
}

function queryAtScale(key: string, q: Json, chart: boolean): string {
  const sizes = Object.keys(q.resources);
  const mock = q.labdMock;
  const cell = (f: Json | undefined) =>
    f
      ? `${f.p50Ms} ms ×${f.p50RatioToGetByKey}${f.readUnits === undefined ? '' : `, ${f.readUnitsAgain ?? f.readUnits} RU`}${f.status === 200 ? '' : ` (${f.status})`}` +
        `${f.selected === undefined ? '' : `, ${n(f.selected)} found`}${f.goalRatio === undefined ? '' : ` (≤ ${f.goalRatio}×: ${met(f.p50RatioToGetByKey <= f.goalRatio)})`}`
      : '';
  const rows = Object.keys(q.resources[sizes[0]!]).map((shape) => [
    shape, ...sizes.map((size) => cell(q.resources[size][shape])), ...(mock ? [cell(mock.shapes[shape])] : []),
  ]);
  const head = ['shape', ...sizes.map((size) => `${n(Number(size))} resources`), ...(mock ? [`labd mock, ${n(mock.size)}`] : [])];
  const index = q.lastModifiedIndex === undefined ? '' : ` The lastModifiedAt index: ${q.lastModifiedIndex ? 'deployed' : 'not deployed'}.`;
  const indexing = q.indexing
    ? `\n\nSeeding and indexing: ${Object.entries<Json>(q.indexing)
        .map(([size, i]) => `${n(Number(size))} resources written in ${seconds(i.seedMs)}, all searchable ${seconds(i.searchableAfterSeedMs)} after the last write`)
        .join('; ')}.`
    : '';
  return `## ${key === 'queryAtScale' ? 'Queries at scale' : `Queries at scale (\`${key}\`)`}

Each shape in a project of each size, against a GET by key of the same project: p50, its ratio to
the GET by key, and DynamoDB's read units (RU) per call; for a search, how many resources it
found, and its goal. ${q.method}.${index}${indexing}
${mock ? `The last column asks the same of @labdigital/commercetools-mock (in memory), ${mock.resourceType}.` : ''}
${chart ? `\n![p50 ms of each shape against the project's size](${CHART_FILE})\n` : ''}
${table(head, `---|${head.slice(1).map(() => '---:').join('|')}`, rows)}`;
}

function searchFreshness(report: Json): string {
  const f = report.searchFreshness;
  const goal = report.goals?.searchableMs;
  const rows = ['create', 'update', 'delete'].map((kind) => {
    const k = f[kind];
    return [kind, k.runs, k.p50Ms ?? '', k.p95Ms ?? '', k.notShownWithin.changes, goal === undefined || k.p95Ms === undefined ? '' : met(k.notShownWithin.changes === 0 && k.p95Ms <= goal)];
  });
  return `## How soon a write is searchable

${f.method}. Goal: p95 ≤ ${goal === undefined ? '–' : n(goal)} ms (about a second, locally).

${table(['change', 'changes', 'p50 ms', 'p95 ms', `not shown within ${n(f.create.notShownWithin.ms)} ms`, 'goal'], '---|---:|---:|---:|---:|---', rows)}`;
}

function searchCatchUp(report: Json): string {
  const c = report.searchCatchUp;
  const goal = report.goals?.caughtUpMs;
  return `## Indexing a bulk load

${c.method}. Goal: every resource searchable within ${goal === undefined ? '–' : n(goal)} ms of the last create.

| resources | created per second | indexed per second while writing | indexed at the last create | caught up after it | goal |
|---:|---:|---:|---:|---:|---|
| ${n(c.resources)} | ${n(c.created.perSecond)} | ${n(c.indexedWhileWriting.perSecond)} | ${n(c.indexedWhileWriting.atLastCreate)} | ${n(c.caughtUp.afterLastCreateMs)} ms | ${goal === undefined ? '' : met(c.caughtUp.afterLastCreateMs <= goal)} |`;
}

function searchEngineAlone(report: Json): string {
  const e = report.searchEngineAlone;
  const sizes = Object.keys(e.resources);
  const shapes = Object.keys(e.resources[sizes[0]!].shapes);
  const rows = shapes.map((shape) => [
    shape,
    ...sizes.map((size) => {
      const f = e.resources[size].shapes[shape];
      return f.error ? `**${f.error}**` : `${f.p50Ms} ms (p95 ${f.p95Ms}), ${n(f.selected)} found`;
    }),
  ]);
  const head = ['search', ...sizes.map((size) => `${n(Number(size))} resources`)];
  return `## The search engine alone

The searches above asked of the engine alone, at sizes too slow to seed into DynamoDB Local in a bench run: ${e.method}. Written at ${sizes
    .map((size) => `${n(e.resources[size].resourcesPerSecond)} resources/s (${n(Number(size))} in ${seconds(e.resources[size].indexMs)})`)
    .join(', ')}.

${table(head, `---|${sizes.map(() => '---:').join('|')}`, rows)}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** p50 ms of each shape against the project size, both axes logarithmic, one line per shape; searches drawn thicker. */
export function queryAtScaleChart(q: Json): string {
  const sizes = Object.keys(q.resources).map(Number);
  const shapes = Object.keys(q.resources[String(sizes[0])]);
  const values = sizes.flatMap((size) => shapes.map((shape) => q.resources[size][shape].p50Ms as number));
  const [w, h, left, top, plotW, plotH] = [1020, 30 + 18 * shapes.length, 80, 20, 380, 360];
  const lx = (v: number) => Math.log10(v);
  const [x0, x1] = [lx(Math.min(...sizes)), lx(Math.max(...sizes))];
  const [y0, y1] = [Math.floor(lx(Math.min(...values))), Math.ceil(lx(Math.max(...values)))];
  const x = (size: number) => (left + ((lx(size) - x0) / (x1 - x0 || 1)) * plotW).toFixed(1);
  const y = (ms: number) => (top + plotH - ((lx(ms) - y0) / (y1 - y0 || 1)) * plotH).toFixed(1);
  const colour = (i: number) => `hsl(${Math.round((i * 360) / shapes.length)},70%,40%)`;
  const dash = (i: number) => ['', ' stroke-dasharray="6 3"', ' stroke-dasharray="2 3"'][i % 3];
  const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${Math.max(h, top + plotH + 50)}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="black"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="black"/>`,
  ];
  for (const size of sizes) out.push(`<text x="${x(size)}" y="${top + plotH + 16}" text-anchor="middle">${n(size)}</text>`);
  out.push(`<text x="${left + plotW / 2}" y="${top + plotH + 36}" text-anchor="middle">resources in the project</text>`);
  for (let e = y0; e <= y1; e++) {
    out.push(`<line x1="${left}" y1="${y(10 ** e)}" x2="${left + plotW}" y2="${y(10 ** e)}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 6}" y="${y(10 ** e)}" text-anchor="end" dominant-baseline="middle">${n(10 ** e)} ms</text>`);
  }
  shapes.forEach((shape, i) => {
    const points = sizes.map((size) => `${x(size)},${y(q.resources[size][shape].p50Ms)}`).join(' ');
    const width = shape.startsWith('search') ? 3 : 1.5;
    out.push(`<polyline points="${points}" fill="none" stroke="${colour(i)}" stroke-width="${width}"${dash(i)}/>`);
    const ly = top + 10 + 18 * i;
    out.push(`<line x1="${left + plotW + 30}" y1="${ly}" x2="${left + plotW + 60}" y2="${ly}" stroke="${colour(i)}" stroke-width="${width + 0.5}"${dash(i)}/>`);
    out.push(`<text x="${left + plotW + 66}" y="${ly}" dominant-baseline="middle">${text(shape)}</text>`);
  });
  return `${[...out, '</svg>'].join('\n')}\n`;
}

/** The page and its chart, from a report. */
export function performanceDoc(report: Json): { markdown: string; chart?: string } {
  const at = Object.entries<string>(report.measuredAt ?? {}).map(([part, when]) => [`\`${part}\``, when]);
  const sections = [
    INTRO,
    `Measured on ${report.machine?.platform} (bench driver on Node.js ${report.machine?.node}):\n\n${table(['part', 'measured at'], '---|---', at)}`,
    report.bundles && bundles(report),
    report.localOverhead && localOverhead(report),
    report.throughput && throughput(report),
    report.cost && cost(report),
    report.cost && searchEngineCost(),
    report.memory && memory(report),
    ...Object.keys(report)
      .filter((key) => key.startsWith('queryAtScale') && report[key]?.resources)
      .map((key) => queryAtScale(key, report[key], key === 'queryAtScale')),
    report.searchFreshness && searchFreshness(report),
    report.searchCatchUp && searchCatchUp(report),
    report.searchEngineAlone && searchEngineAlone(report),
  ];
  return {
    markdown: `${sections.filter(Boolean).join('\n\n')}\n`,
    chart: report.queryAtScale?.resources ? queryAtScaleChart(report.queryAtScale) : undefined,
  };
}

export const REPORT_URL = new URL('./report.json', import.meta.url);
export const DOC_URL = new URL('../docs/performance.md', import.meta.url);
export const CHART_URL = new URL(`../docs/${CHART_FILE}`, import.meta.url);

export function writePerformanceDoc(): void {
  const { markdown, chart } = performanceDoc(JSON.parse(readFileSync(REPORT_URL, 'utf8')));
  writeFileSync(DOC_URL, markdown);
  if (chart) writeFileSync(CHART_URL, chart);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writePerformanceDoc();
  console.log('written to docs/performance.md');
}
