import type { Page } from './page';
import type { QueryBudget } from './query-budget';

export interface PageRequest {
  limit: number;
  offset: number;
  withTotal: boolean;
}

/** What a page needs of a plan: the predicate, the order, and the order the stream already has. */
export interface PageOrder {
  matches: (document: unknown) => boolean;
  compare: (a: unknown, b: unknown) => number;
  /**
   * The stream's own order, when it has one that `compare` refines (see StoreAccess): a full
   * page is final once a document sorts after its last one in this order.
   */
  streamOrder?: (a: unknown, b: unknown) => number;
}

export interface CollectOptions<T> {
  /** Sees every document read (search's facets, which then need the whole stream). */
  observe?: (document: T) => void;
  budget?: QueryBudget;
}

/**
 * Reads a stream of documents into one page of matches. It holds at most `offset + limit`
 * documents — the window sorting needs — and, when the stream comes in an order that the sort
 * refines and no total is asked for, stops reading once the page is final. Every document read
 * counts against the budget.
 */
export async function collectPage<T>(
  documents: AsyncIterable<T> | Iterable<T>,
  plan: PageOrder,
  page: PageRequest,
  { observe, budget }: CollectOptions<T> = {},
): Promise<Page<T>> {
  const windowSize = page.offset + page.limit;
  const { streamOrder } = plan;
  const stopWhenFinal = streamOrder !== undefined && !page.withTotal && !observe;
  const spend = budget?.start();
  const window: T[] = [];
  let total = 0;

  for await (const document of documents) {
    spend?.();
    if (stopWhenFinal && (windowSize === 0 || (window.length === windowSize && streamOrder(window[windowSize - 1], document) < 0))) break;
    observe?.(document);
    if (!plan.matches(document)) continue;
    total++;
    insertBounded(window, document, plan.compare, windowSize);
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

/** Whether any document of the stream matches; reading stops at the first match. */
export async function anyMatch<T>(documents: AsyncIterable<T> | Iterable<T>, matches: (document: T) => boolean, budget?: QueryBudget): Promise<boolean> {
  const spend = budget?.start();
  for await (const document of documents) {
    spend?.();
    if (matches(document)) return true;
  }
  return false;
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
