import { InvalidInputError } from '../errors';
import type { QueryParameters } from '../query-parameters';
import type { Page } from './page';
import type { QueryBudget } from './query-budget';

export interface PageRequest {
  limit: number;
  offset: number;
  withTotal: boolean;
}

/** `limit`, `offset` and `withTotal`, with the defaults of the commercetools family. */
export function pageRequestOf(query: QueryParameters): PageRequest {
  return { limit: query.number('limit') ?? 20, offset: query.number('offset') ?? 0, withTotal: query.boolean('withTotal') ?? true };
}

/** What a page needs of a plan: the predicate, the order, and the order the stream already has. */
export interface PageOrder {
  matches: (document: unknown) => boolean;
  compare: (a: unknown, b: unknown) => number;
  /** The stream's own order, when it has one that `compare` refines (see StoreAccess): a full page is final once a document sorts after its last one in this order. */
  streamOrder?: (a: unknown, b: unknown) => number;
}

export interface CollectOptions<T> {
  /** Sees every document read (search's facets, which then need the whole stream). */
  observe?: (document: T) => void;
  budget?: QueryBudget;
  /** The most bytes of resources the page may hold while it is read, and what to tell past them. */
  bytes?: PageBytes;
}

export interface PageBytes {
  max: number;
  /** Why the page cannot be larger, and what else the client can do than ask for fewer results. */
  reason: string;
  orElse?: string;
}

/**
 * Reads a stream of documents into one page of matches. It holds at most `offset + limit`
 * documents — the window sorting needs — and, when the stream comes in an order that the sort
 * refines and no total is asked for, stops reading once the page is final. Every document read
 * counts against the budget. With `bytes`, each document that enters the window is measured as
 * JSON once, and the page is refused (400) as soon as the window holds more: the memory a page
 * takes is bounded while it is read, not after. The skipped `offset` documents are held and count too.
 */
export async function collectPage<T>(
  documents: AsyncIterable<T> | Iterable<T>,
  plan: PageOrder,
  page: PageRequest,
  { observe, budget, bytes }: CollectOptions<T> = {},
): Promise<Page<T>> {
  const windowSize = page.offset + page.limit;
  const { streamOrder } = plan;
  const stopWhenFinal = streamOrder !== undefined && !page.withTotal && !observe;
  const spend = budget?.start();
  const window: T[] = [];
  const sizes = new Map<T, number>();
  let windowBytes = 0;
  let total = 0;

  for await (const document of documents) {
    spend?.();
    if (stopWhenFinal && (windowSize === 0 || (window.length === windowSize && streamOrder(window[windowSize - 1], document) < 0))) break;
    observe?.(document);
    if (!plan.matches(document)) continue;
    total++;
    const dropped = insertBounded(window, document, plan.compare, windowSize);
    if (!bytes || dropped === document) continue;
    const size = Buffer.byteLength(JSON.stringify(document));
    sizes.set(document, size);
    windowBytes += size - (dropped === undefined ? 0 : sizes.get(dropped)!);
    if (dropped !== undefined) sizes.delete(dropped);
    if (windowBytes > bytes.max) throw tooLarge(bytes, fittingResults(window, sizes, bytes.max, page.offset));
  }

  const results = window.slice(page.offset);
  return { limit: page.limit, offset: page.offset, count: results.length, ...(page.withTotal ? { total } : {}), results };
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

/**
 * How many results of the window fit well inside `max`: the advice must name a page that is then
 * sent, and the answer carries more than its documents (quotes escaped once more in Lambda's result).
 */
function fittingResults<T>(window: T[], sizes: Map<T, number>, max: number, offset: number): number {
  let held = 0;
  const fitting = window.findIndex((document) => (held += sizes.get(document)!) > max * 0.9);
  return fitting - offset;
}

function tooLarge(bytes: PageBytes, fitting: number): InvalidInputError {
  const megabytes = (bytes.max / (1024 * 1024)).toFixed(1);
  const advice = fitting > 0 ? `ask for fewer results (limit=${fitting} or less)` : 'ask for fewer results (a smaller limit and offset, or page by id)';
  return new InvalidInputError(`This page would take more than ${megabytes} MB, ${bytes.reason}: ${advice}${bytes.orElse ? `, or ${bytes.orElse}` : ''}.`);
}

/** Keeps `window` sorted and no longer than `size`: binary search for the place, drop the last. Returns the document dropped, if any (it may be the one given). */
function insertBounded<T>(window: T[], document: T, compare: (a: T, b: T) => number, size: number): T | undefined {
  if (size === 0) return document;
  if (window.length === size && compare(document, window[size - 1]!) >= 0) return document;
  let low = 0;
  let high = window.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(document, window[middle]!) < 0) high = middle;
    else low = middle + 1;
  }
  window.splice(low, 0, document);
  return window.length > size ? window.pop() : undefined;
}
