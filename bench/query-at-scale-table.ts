import { queryAtScale } from './query-at-scale';

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

