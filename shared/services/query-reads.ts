import type { DocumentComparator, PageRequest, QueryPlan } from '../domain/query';
import type { Skip, Skipped, StreamPosition } from '../store/resource-store';

/** How the query services read the store: the sizes of their reads, and the pass over a deep offset. */

/** The first read of a scan that may read everything (it doubles up to the store's maximum). */
export const FULL_READ_SIZE = 1_000;

/**
 * Where the page starts, and what is left of the offset there. A page that ends early (read in
 * the stream's order, without a total) of a query whose predicate reads only the stream's own
 * order fields (none, or ranges of them) passes over a deep offset reading keys only
 * (`skip`): the predicate decides on those fields what the evaluator would decide on the whole
 * resource. Otherwise the whole offset is read and evaluated, from the range's start.
 */
export async function passOffset(
  plan: QueryPlan,
  streamOrder: DocumentComparator | undefined,
  page: PageRequest,
  orderFields: readonly string[],
  skipFrom: number,
  skip: (skip: Skip) => Promise<Skipped> | undefined,
): Promise<{ after?: StreamPosition; offset: number }> {
  if (!streamOrder || page.withTotal || page.offset < skipFrom || !plan.readsOnly(orderFields)) return { offset: page.offset };
  const skipped = await skip({ count: page.offset, matches: plan.matches, order: streamOrder });
  if (!skipped) return { offset: page.offset };
  return { ...(skipped.after ? { after: skipped.after } : {}), offset: page.offset - skipped.passed };
}

/** One stream after the other (the second is read only if the first does not end the reading). */
export async function* concat<T>(...streams: (AsyncIterable<T> | Iterable<T>)[]): AsyncIterable<T> {
  for (const stream of streams) yield* stream;
}
