import * as z from 'zod/mini';
import type { QueryPlan } from './query-plan';

export interface PageRequest {
  limit: number;
  offset: number;
  withTotal: boolean;
}

/** The paging fields of a query answer (rows 1, 4 and 12): `{limit, offset, count, total, results}`. */
const PageFields = z.object({
  limit: z.number().check(z.int(), z.meta({ description: 'Page size asked for (default 20)' })),
  offset: z.number().check(z.int(), z.meta({ description: 'Matches skipped (default 0)' })),
  count: z.number().check(z.int(), z.meta({ description: 'Results on this page' })),
  total: z.optional(z.number().check(z.int())).check(z.meta({ description: 'All matches; absent with `withTotal=false`' })),
});

/** The paged answer's schema for results of the given schema. */
export const pageOf = <T extends z.core.$ZodType>(result: T) => z.extend(PageFields, { results: z.array(result) });

export type Page<T> = z.infer<typeof PageFields> & { results: T[] };

/**
 * Reads a stream of documents into one page of matches. It holds at most `offset + limit`
 * documents — the window sorting needs — and, when the stream already comes in the wanted order
 * and no total is asked for, stops reading as soon as the page is full. `observe` sees every
 * document read (search uses it for facets, which then need the whole stream).
 */
export async function collectPage<T>(
  documents: AsyncIterable<T>,
  plan: Pick<QueryPlan, 'matches' | 'compare' | 'inStoreOrder'>,
  page: PageRequest,
  observe?: (document: T) => void,
): Promise<Page<T>> {
  const windowSize = page.offset + page.limit;
  const stopWhenFull = plan.inStoreOrder && !page.withTotal && !observe;
  const window: T[] = [];
  let total = 0;

  for await (const document of documents) {
    observe?.(document);
    if (!plan.matches(document)) continue;
    total++;
    if (plan.inStoreOrder) {
      if (window.length < windowSize) window.push(document);
      if (stopWhenFull && window.length >= windowSize) break;
    } else {
      insertBounded(window, document, plan.compare, windowSize);
    }
  }

  const results = window.slice(page.offset);
  return {
    limit: page.limit,
    offset: page.offset,
    count: results.length,
    ...(page.withTotal ? { total } : {}),
    results,
  };
}

/** Keeps `window` sorted and no longer than `size`: binary search for the place, drop the last. */
function insertBounded<T>(window: T[], document: T, compare: (a: T, b: T) => number, size: number): void {
  if (size === 0) return;
  if (window.length === size && compare(document, window[size - 1]!) >= 0) return;
  let low = 0;
  let high = window.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(document, window[middle]!) < 0) high = middle;
    else low = middle + 1;
  }
  window.splice(low, 0, document);
  if (window.length > size) window.pop();
}
