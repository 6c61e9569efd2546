import { isResourceKey } from '../resource-address';
import { idPrefixAt } from '../resource-id';
import { instantOf } from './field-values';
import type { DocumentComparator } from './sort';

/**
 * Which resources a request can match and in which order the store can hand them over, whatever
 * language said it: `where` conjuncts (query-plan.ts) and search's `filter.query`
 * (search-narrowing.ts) each fill a Narrowing; `planRead` turns it, with the request's sort, into
 * the one store read that answers it. Every read is a superset of the matches: the request's own
 * predicate is still evaluated on what is read.
 *
 * - named ids are read directly, named keys through their sentinels;
 * - `id` bounds are a range of the table's sort key, and so are `createdAt` bounds: ids are
 *   creation-ordered (resource-id.ts);
 * - a first sort on `id` or `createdAt` is the table's own order, ascending or reversed, so a page
 *   is complete after about one page of reads;
 * - a first sort on `lastModifiedAt`, or `lastModifiedAt` bounds alone, are a range of the
 *   `lastModifiedAt` index, when the deployment has it; unsorted (or sorted by `id`) and not needing
 *   every match, that range comes in id order: its entries are read, then its resources by id.
 */
export interface Narrowing {
  /** Only resources with one of these ids can match. */
  ids?: readonly string[];
  /** Only resources with one of these keys can match. */
  keys?: readonly string[];
  /** Inclusive bounds of the matches' ids (code-unit order). */
  id: Bounds<string>;
  /** Inclusive bounds of the matches' `createdAt`, in epoch milliseconds. */
  createdAt: Bounds<number>;
  /** Inclusive bounds of the matches' `lastModifiedAt`, in epoch milliseconds. */
  lastModifiedAt: Bounds<number>;
}

export interface Bounds<T> {
  from?: T;
  to?: T;
}

/** The one store read a request needs: named ids, named keys, or a range. */
export type StoreRead = { ids: readonly string[] } | { keys: readonly string[] } | { range: StoreRange };

/**
 * A range of the project's resources: in id order (the table's sort key), or in `lastModifiedAt`
 * order (the index). Bounds are inclusive; on `id` either may be a prefix, on `lastModifiedAt`
 * they are instants as stored (`toISOString`).
 */
export interface StoreRange {
  on: 'id' | 'lastModifiedAt';
  from?: string;
  to?: string;
  descending: boolean;
  /** A `lastModifiedAt` range handed over in id order: its index entries first, then its resources as the stream is consumed. */
  order?: 'id';
}

/** What a plan tells about the store read: the read, and the order its stream comes in. */
export interface PlannedRead {
  read: StoreRead;
  /**
   * The order the store's stream comes in, coarser than or equal to the request's (documents it
   * orders, the request's sort orders the same way): once a page is full, the first document that
   * sorts after the page's last in this order ends the reading. Undefined: no useful order.
   */
  streamOrder?: DocumentComparator;
}

export interface ReadOptions {
  /** The deployment indexes `lastModifiedAt` (its default). */
  lastModifiedIndex: boolean;
  /** The answer needs every match (a filtered total, facets): a `lastModifiedAt` order alone then gains nothing from the index, whose every entry costs a read of its resource. */
  readsEveryMatch: boolean;
}

/**
 * Whether a value has an id's shape (36 hex digits and dashes): looser than the UUID pattern every
 * id matches (resource-address.ts), and enough to keep what the store is asked for within its key sizes.
 */
const mayBeResourceId = (value: string) => /^[\da-f-]{36}$/i.test(value);

/** Gathers a Narrowing from conditions that must all hold: named values intersect, bounds tighten. */
export class NarrowingCollector {
  private named: { ids?: Set<string>; keys?: Set<string> } = {};
  private readonly bounds = { id: {} as Bounds<string>, createdAt: {} as Bounds<number>, lastModifiedAt: {} as Bounds<number> };

  /**
   * Only these values of `id` or `key` can match (one condition: the values are alternatives).
   * A value no id (key) can be names no resource, so it is dropped: the
   * store is never asked for it (one past the sort key's 1024 bytes is a ValidationException),
   * and a condition left with none names no candidate, so nothing is read.
   */
  name(field: 'id' | 'key', values: readonly string[]): void {
    const slot = field === 'id' ? 'ids' : 'keys';
    const possible = values.filter(field === 'id' ? mayBeResourceId : isResourceKey);
    const current = this.named[slot];
    this.named[slot] = current ? new Set(possible.filter((value) => current.has(value))) : new Set(possible);
  }

  /** The matches' values of `field` are at least (`from`) or at most (`to`) this one. */
  bound(field: 'id', side: keyof Bounds<string>, value: string): void;
  bound(field: 'createdAt' | 'lastModifiedAt', side: keyof Bounds<number>, value: number): void;
  bound(field: keyof NarrowingCollector['bounds'], side: 'from' | 'to', value: string | number): void {
    const bounds: Bounds<string | number> = this.bounds[field];
    bounds[side] = side === 'from' ? highest(bounds.from, value) : lowest(bounds.to, value);
  }

  narrowing(): Narrowing {
    const { ids, keys } = this.named;
    return { ...(ids ? { ids: [...ids] } : {}), ...(keys ? { keys: [...keys] } : {}), ...this.bounds };
  }
}

/** The store read for a Narrowing, in the order the sort's first field allows. */
export function planRead(narrowing: Narrowing, sort: readonly string[], options: ReadOptions): PlannedRead {
  if (narrowing.ids) return { read: { ids: narrowing.ids } };
  if (narrowing.keys) return { read: { keys: narrowing.keys } };
  const { id, createdAt, lastModifiedAt } = narrowing;
  const firstSort = parseFirstSort(sort[0]);
  const lastModified = { from: storedInstant(lastModifiedAt.from, Math.floor), to: storedInstant(lastModifiedAt.to, Math.ceil) };
  const lastModifiedBounded = lastModified.from !== undefined || lastModified.to !== undefined;
  const tableBounded = [id.from, id.to, createdAt.from, createdAt.to].some((bound) => bound !== undefined);
  const byLastModified =
    options.lastModifiedIndex &&
    (firstSort?.field === 'lastModifiedAt'
      ? lastModifiedBounded || !options.readsEveryMatch
      : lastModifiedBounded && !tableBounded && (!firstSort || (firstSort.field === 'id' && !options.readsEveryMatch)));
  if (byLastModified) {
    const range = { on: 'lastModifiedAt' as const, ...defined(lastModified), descending: firstSort !== undefined && firstSort.direction < 0 };
    if (firstSort?.field === 'lastModifiedAt') return { read: { range }, streamOrder: byInstant('lastModifiedAt', firstSort.direction) };
    // Every match is read anyway: id order would only add the reading of the entries first.
    if (options.readsEveryMatch) return { read: { range } };
    return { read: { range: { ...range, order: 'id' } }, streamOrder: byId(firstSort?.direction ?? 1) };
  }
  // Ids are creation-ordered: a createdAt bound is a bound of the ids' time prefix.
  const from = createdAt.from === undefined ? id.from : highest(id.from, idPrefixAt(Math.floor(createdAt.from)));
  const to = createdAt.to === undefined ? id.to : lowest(id.to, idPrefixAt(Math.floor(createdAt.to)));
  const range = { on: 'id' as const, ...defined({ from, to }) };
  if (sort.length === 0) return { read: { range: { ...range, descending: false } }, streamOrder: byId(1) };
  if (firstSort?.field === 'id') return { read: { range: { ...range, descending: firstSort.direction < 0 } }, streamOrder: byId(firstSort.direction) };
  if (firstSort?.field === 'createdAt') {
    return { read: { range: { ...range, descending: firstSort.direction < 0 } }, streamOrder: byInstant('createdAt', firstSort.direction) };
  }
  return { read: { range: { ...range, descending: false } } };
}

/** An instant as the store writes it, or undefined (no bound, a superset) outside years 0–9999, whose text would not sort. */
function storedInstant(instant: number | undefined, round: (value: number) => number): string | undefined {
  if (instant === undefined) return undefined;
  const date = new Date(round(instant));
  if (Number.isNaN(date.getTime())) return undefined;
  const text = date.toISOString();
  return /^\d{4}-/.test(text) ? text : undefined;
}

/** The bounds that are set. */
const defined = (bounds: { from?: string | undefined; to?: string | undefined }) => ({
  ...(bounds.from === undefined ? {} : { from: bounds.from }),
  ...(bounds.to === undefined ? {} : { to: bounds.to }),
});

function highest<T extends string | number>(current: T | undefined, next: T): T {
  return current === undefined || next > current ? next : current;
}

function lowest<T extends string | number>(current: T | undefined, next: T): T {
  return current === undefined || next < current ? next : current;
}

/** The first sort's field and direction, when it is one the store can order by. */
function parseFirstSort(sort: string | undefined): { field: 'id' | 'createdAt' | 'lastModifiedAt'; direction: 1 | -1 } | undefined {
  const match = sort === undefined ? null : /^\s*(id|createdAt|lastModifiedAt)\s+(asc|desc)\s*$/i.exec(sort);
  if (!match || (match[1] !== 'id' && match[1] !== 'createdAt' && match[1] !== 'lastModifiedAt')) return undefined;
  return { field: match[1], direction: match[2]!.toLowerCase() === 'desc' ? -1 : 1 };
}

const fieldOf = (doc: unknown, field: string) => (doc as Record<string, unknown> | null)?.[field];

function byId(direction: 1 | -1): DocumentComparator {
  return (a, b) => {
    const [left, right] = [String(fieldOf(a, 'id')), String(fieldOf(b, 'id'))];
    return left === right ? 0 : direction * (left < right ? -1 : 1);
  };
}

function byInstant(field: string, direction: 1 | -1): DocumentComparator {
  return (a, b) => direction * ((instantOf(String(fieldOf(a, field))) ?? 0) - (instantOf(String(fieldOf(b, field))) ?? 0));
}
