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

  it('renders only the parts a report holds, and no chart without queries at scale', () => {
    const { markdown, chart } = performanceDoc({ goals: { usdPerMillion: 1 }, cost: { mix: 'reads', usdPerMillion: { lambda: 0.5, total: 0.5 } } });
    expect(markdown).toContain('## Cost per million calls');
    expect(markdown).not.toContain('## Bundles');
    expect(markdown).not.toContain('## Queries at scale');
    expect(chart).toBeUndefined();
  });
});
