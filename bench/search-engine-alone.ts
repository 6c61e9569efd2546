import type pg from 'pg';
import { indexingPool, searchIndex, searchIndexWriter } from '../shared/composition-root';
import { facetResultOf } from '../shared/domain/search';
import { measure } from './measure';
import { corpusResource, SEARCH_SHAPES } from './search-corpus';

export const ENGINE_ALONE_SIZES = (process.env.SEARCH_ENGINE_ALONE_SIZES ?? '100000,1000000').split(',').map(Number);
const RUNS = Number(process.env.SEARCH_ENGINE_ALONE_RUNS ?? 12);
const BATCH = 1_000;
export const engineProjectOf = (size: number) => `engine-${size}`;

/**
 * The search engine alone, at sizes too slow to seed into DynamoDB Local in a bench run: the
 * corpus written straight into PostgreSQL through the index's writer (in batches, as the stream
 * feeds it), then each search shape asked of the index's adapter — the SQL the search function
 * runs, without the table read of the page's 20 bodies (a BatchGetItem whose cost does not grow
 * with the project).
 */
export async function searchEngineAlone() {
  const bySize: Record<string, unknown> = {};
  for (const size of ENGINE_ALONE_SIZES) {
    const project = engineProjectOf(size);
    console.log(`… writing ${size} resources into the search index`);
    const started = performance.now();
    for (let first = 0; first < size; first += BATCH) {
      const changes = Array.from({ length: Math.min(BATCH, size - first) }, (_, offset) => ({ kind: 'put' as const, projectKey: project, resource: corpusResource(first + offset, size) }));
      await searchIndexWriter().apply(changes);
      if ((first / BATCH) % 100 === 99) console.log(`  ${first + BATCH} written`);
    }
    const indexMs = performance.now() - started;
    // The index as it settles minutes after a bulk load: statistics (a reindex refreshes them) and
    // the visibility map autovacuum keeps, without which index-only scans read the table too.
    const client = await indexingPool().connect();
    // Past the writer's statement timeouts: minutes at a million resources.
    await client.query('SET statement_timeout = 0');
    await client.query({ text: 'VACUUM (ANALYZE) search_resources, search_postings, search_values, search_words, search_stems', query_timeout: 3_600_000 } as pg.QueryConfig);
    client.release();
    const shapes: Record<string, unknown> = {};
    for (const shape of SEARCH_SHAPES) {
      const request = shape.request(size);
      const ask = () => searchIndex().search(project, request);
      // A search past the adapter's statement timeout is reported as the error it answers. A
      // facet's answer is as searchApiPattern writes it: its bytes do not grow with the project.
      shapes[shape.name] = await ask().then(
        async ({ total, ids, facets }) => ({
          ...(await measure(ask, RUNS, 1)),
          selected: total ?? ids.length,
          ...(facets.length === 0 ? {} : { facetBytes: JSON.stringify(request.facets.map((facet, index) => facetResultOf(facet, facets[index]!))).length }),
        }),
        (error: unknown) => ({ error: String(error) }),
      );
      console.log(`  ${size} ${shape.name}: ${JSON.stringify(shapes[shape.name])}`);
    }
    bySize[String(size)] = { indexMs: Math.round(indexMs), resourcesPerSecond: Math.round(size / (indexMs / 1000)), shapes };
  }
  return {
    sizes: ENGINE_ALONE_SIZES,
    method:
      `the corpus written through searchIndexWriter().apply in batches of ${BATCH}, then VACUUM ANALYZE (statistics and visibility map, as autovacuum leaves them minutes after a bulk load); each search asked of searchIndex().search ${RUNS} times after one warm-up ` +
      '(p50 and p95 ms), in the local PostgreSQL; no DynamoDB, no HTTP',
    resources: bySize,
  };
}
