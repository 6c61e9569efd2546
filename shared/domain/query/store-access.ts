import { isResourceKey } from '../resource-address';
import { idPrefixAt } from '../resource-id';
import { instantOf } from './field-schema';
import type { DocumentComparator } from './sort';

/**
 * Which resources a request can match and in which order the store can hand them over, whatever
 * language said it: `where` conjuncts (query-plan.ts) and search's `filter.query`
 * (search-narrowing.ts) each fill a Narrowing; `planAccess` turns it, with the request's sort,
 * into reads of the table or of its optional `lastModifiedAt` index. Every part is a superset of
 * the matches: the request's own predicate is still evaluated on what is read.
 *
 * - named ids are read directly, named keys through their sentinels;
 * - `id` bounds are a range of the table's sort key; `createdAt` bounds too when ids are
 *   creation-ordered (resource-id.ts), as they are in every project without older resources;
 * - a first sort on `id` or (ordered ids) `createdAt` is the store's own order, ascending or
 *   reversed, so a page is complete after about one page of reads;
 * - a first sort on `lastModifiedAt`, or `lastModifiedAt` bounds, name a range and order of the
 *   deployment's optional `lastModifiedAt` index (`lastModifiedAccess`), used when it exists.
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

/** The store reads a Narrowing and a sort come to. */
export interface PlannedAccess {
  ids?: readonly string[];
  keys?: readonly string[];
  /** The store range to read and the order it comes in, given whether the project's ids are creation-ordered. */
  access(idsInCreationOrder: boolean): StoreAccess;
  /** Whether `access` depends on the project's ids being creation-ordered. */
  usesCreationOrder: boolean;
  /** The range and order of the `lastModifiedAt` index that answers this request, if one would. */
  lastModifiedAccess?: LastModifiedAccess;
}

export interface StoreAccess {
  fromId?: string;
  toId?: string;
  descending: boolean;
  /**
   * The order the store's stream comes in, coarser than or equal to the request's (documents it
   * orders, the request's sort orders the same way): once a page is full, the first document that
   * sorts after the page's last in this order ends the reading. Undefined: no useful order.
   */
  streamOrder?: DocumentComparator;
}

export interface LastModifiedAccess {
  /** Inclusive bounds, as stored instants (`toISOString`): a superset of the request's range. */
  from?: string;
  to?: string;
  /** Some bound was given: the range is narrower than the project. */
  bounded: boolean;
  descending: boolean;
  /** As in StoreAccess: set when the first sort is on `lastModifiedAt`. */
  streamOrder?: DocumentComparator;
}

/**
 * Whether a value has an id's shape (36 hex digits and dashes): looser than the UUID pattern every
 * id matches (resource-address.ts), which would cost the query functions 0.17 KB of bundle, and
 * enough to keep what the store is asked for within its key sizes.
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

/** What the store reads for a Narrowing, in the order the sort's first field allows. */
export function planAccess(narrowing: Narrowing, sort: readonly string[]): PlannedAccess {
  const { id: idBounds, createdAt } = narrowing;
  const firstSort = parseFirstSort(sort[0]);
  const byCreation = firstSort?.field === 'createdAt';
  const createdAtBounded = createdAt.from !== undefined || createdAt.to !== undefined;
  const lastModifiedAccess = lastModifiedAccessOf(
    firstSort,
    narrowing.lastModifiedAt,
    // Another store range or order already narrows the read: that one is taken.
    idBounds.from !== undefined || idBounds.to !== undefined || createdAtBounded || firstSort !== undefined,
  );
  return {
    ...(narrowing.ids ? { ids: narrowing.ids } : {}),
    ...(narrowing.keys ? { keys: narrowing.keys } : {}),
    ...(lastModifiedAccess ? { lastModifiedAccess } : {}),
    usesCreationOrder: byCreation || createdAtBounded,
    access(idsInCreationOrder) {
      let { from: fromId, to: toId } = idBounds;
      if (idsInCreationOrder) {
        if (createdAt.from !== undefined) fromId = highest(fromId, idPrefixAt(Math.floor(createdAt.from)));
        if (createdAt.to !== undefined) toId = lowest(toId, idPrefixAt(Math.floor(createdAt.to)));
      }
      const range = { ...(fromId === undefined ? {} : { fromId }), ...(toId === undefined ? {} : { toId }) };
      if (sort.length === 0) return { ...range, descending: false, streamOrder: byId(1) };
      if (!firstSort) return { ...range, descending: false };
      if (firstSort.field === 'id') return { ...range, descending: firstSort.direction < 0, streamOrder: byId(firstSort.direction) };
      if (byCreation && idsInCreationOrder) {
        return { ...range, descending: firstSort.direction < 0, streamOrder: byInstant('createdAt', firstSort.direction) };
      }
      return { ...range, descending: false };
    },
  };
}

/**
 * The `lastModifiedAt` index's part: with a first sort on it, its order (and any range); with a
 * range and no other store range or order, the range. Bounds are widened to whole milliseconds.
 */
function lastModifiedAccessOf(
  firstSort: { field: string; direction: 1 | -1 } | undefined,
  range: Bounds<number>,
  otherAccess: boolean,
): LastModifiedAccess | undefined {
  const from = storedInstant(range.from, Math.floor);
  const to = storedInstant(range.to, Math.ceil);
  const bounded = from !== undefined || to !== undefined;
  const bounds = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }), bounded };
  if (firstSort?.field === 'lastModifiedAt') {
    return { ...bounds, descending: firstSort.direction < 0, streamOrder: byInstant('lastModifiedAt', firstSort.direction) };
  }
  if (bounded && !otherAccess) return { ...bounds, descending: false };
  return undefined;
}

/** An instant as the store writes it, or undefined (no bound, a superset) outside years 0–9999, whose text would not sort. */
function storedInstant(instant: number | undefined, round: (value: number) => number): string | undefined {
  if (instant === undefined) return undefined;
  const date = new Date(round(instant));
  if (Number.isNaN(date.getTime())) return undefined;
  const text = date.toISOString();
  return /^\d{4}-/.test(text) ? text : undefined;
}

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
