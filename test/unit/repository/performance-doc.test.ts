import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHART_URL, DOC_URL, performanceDoc, REPORT_URL } from '../../../bench/write-performance-doc';

describe('docs/performance.md', () => {
  const generated = performanceDoc(JSON.parse(readFileSync(REPORT_URL, 'utf8')));

  it('is what the generator makes from the committed bench/report.json (run `npm run perf-doc`)', () => {
    expect(readFileSync(DOC_URL, 'utf8') === generated.markdown, 'docs/performance.md is stale: run `npm run perf-doc`').toBe(true);
    expect(readFileSync(CHART_URL, 'utf8') === generated.chart, 'docs/query-at-scale.svg is stale: run `npm run perf-doc`').toBe(true);
  });

  it('shows the report\'s goals and every function it measured', () => {
    const report = JSON.parse(readFileSync(REPORT_URL, 'utf8'));
    for (const name of Object.keys(report.bundles.functions)) expect(generated.markdown).toContain(`| ${name} |`);
    expect(generated.markdown).toContain(`≤ ${report.goals.usdPerMillion}`);
    expect(generated.markdown).toContain(`**${report.cost.usdPerMillion.total}**`);
  });

  it('holds each search to its goal and shows how soon writes are searchable', () => {
    const shape = { p50Ms: 12, p95Ms: 20, status: 200, selected: 20, goalRatio: 3 };
    const measured = (create: object) => ({
      method: 'writes',
      create,
      update: { runs: 2, p50Ms: 300, p95Ms: 400, notShownWithin: { ms: 30_000, changes: 0 } },
      delete: { runs: 2, p50Ms: 300, p95Ms: 400, notShownWithin: { ms: 30_000, changes: 0 } },
    });
    const { markdown } = performanceDoc({
      goals: { searchableMs: 1000 },
      queryAtScale: { method: 'rounds', resources: { 1000: { 'search, a page': { ...shape, p50RatioToGetByKey: 2.5 }, 'search, facets': { ...shape, p50RatioToGetByKey: 11, goalRatio: 10 } } } },
      searchFreshness: measured({ runs: 2, p50Ms: 900, p95Ms: 1500, notShownWithin: { ms: 30_000, changes: 0 } }),
    });
    expect(markdown).toContain('| search, a page | 12 ms ×2.5, 20 found (≤ 3×: ok) |');
    expect(markdown).toContain('| search, facets | 12 ms ×11, 20 found (≤ 10×: **over**) |');
    expect(markdown).toContain('| create | 2 | 900 | 1500 | 0 | **over** |');
    expect(markdown).toContain('| update | 2 | 300 | 400 | 0 | ok |');
  });

  it('renders only the parts a report holds, and no chart without queries at scale', () => {
    const { markdown, chart } = performanceDoc({ goals: { usdPerMillion: 1 }, cost: { mix: 'reads', usdPerMillion: { lambda: 0.5, total: 0.5 } } });
    expect(markdown).toContain('## Cost per million calls');
    expect(markdown).not.toContain('## Bundles');
    expect(markdown).not.toContain('## Queries at scale');
    expect(chart).toBeUndefined();
  });
});
