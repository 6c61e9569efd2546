import { NarrowingCollector, type Narrowing } from '../query/store-access';
import type { FilterExpression, ValueItem } from './expression-ast';

/**
 * What a search's `filter.query` expressions say of the fields the store reads by: they restrict
 * both the results and the documents facets count, so reading only the resources they allow
 * changes no answer (`filter` and `filter.facets` restrict one side only and narrow nothing).
 * Expressions hold together; the values of one expression are alternatives, so an expression
 * narrows to what covers all of them:
 *
 * - `id:"a","b"` and `key:"a","b"` name the candidates;
 * - `id:range("a" to "b")` bounds the ids (code-unit order, as the filter compares text);
 * - `createdAt:range(… to …)` and `lastModifiedAt:range(…)` bound instants. The filter compares
 *   their text, and stored instants are always `YYYY-MM-DDTHH:mm:ss.sssZ`, whose text sorts as
 *   time does: a bound in that form, or a date alone (`"2026-11-01"`, midnight UTC), bounds the
 *   instants too. A bound in any other form narrows nothing.
 */
export function narrowingOfFilters(expressions: readonly FilterExpression[]): Narrowing {
  const narrowing = new NarrowingCollector();
  for (const { field, condition } of expressions) {
    if (condition.kind !== 'values') continue;
    const { items } = condition;
    switch (field.path) {
      case 'id':
      case 'key': {
        const terms = items.flatMap((item) => (item.kind === 'term' && typeof item.value === 'string' ? [item.value] : []));
        if (terms.length === items.length) {
          narrowing.name(field.path, terms);
        } else if (field.path === 'id') {
          const hull = hullOf(items, (text) => text);
          if (hull?.from !== undefined) narrowing.bound('id', 'from', hull.from);
          if (hull?.to !== undefined) narrowing.bound('id', 'to', hull.to);
        }
        break;
      }
      case 'createdAt':
      case 'lastModifiedAt': {
        const hull = hullOf(items, instantBoundOf);
        if (hull?.from !== undefined) narrowing.bound(field.path, 'from', hull.from);
        if (hull?.to !== undefined) narrowing.bound(field.path, 'to', hull.to);
        break;
      }
    }
  }
  return narrowing.narrowing();
}

/**
 * The smallest range holding every item (a term is a range of one value), each end placed by
 * `boundOf`; undefined when an end cannot be placed. An open end stays open.
 */
function hullOf<T extends string | number>(items: readonly ValueItem[], boundOf: (text: string) => T | undefined): { from?: T; to?: T } | undefined {
  let from: T | undefined;
  let to: T | undefined;
  let openFrom = false;
  let openTo = false;
  for (const item of items) {
    const [start, end] = item.kind === 'term' ? [item.value, item.value] : [item.from?.value, item.to?.value];
    if (start === undefined) openFrom = true;
    else {
      const bound = typeof start === 'string' ? boundOf(start) : undefined;
      if (bound === undefined) return undefined;
      if (from === undefined || bound < from) from = bound;
    }
    if (end === undefined) openTo = true;
    else {
      const bound = typeof end === 'string' ? boundOf(end) : undefined;
      if (bound === undefined) return undefined;
      if (to === undefined || bound > to) to = bound;
    }
  }
  return { ...(openFrom || from === undefined ? {} : { from }), ...(openTo || to === undefined ? {} : { to }) };
}

const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant a filter's bound stands for, as a bound of stored instants: a stored text at or
 * above (below) a text in their own form is at or after (before) its instant; one at or above a
 * date alone is on that day or later, one at or below it before that day (midnight bounds both).
 */
function instantBoundOf(text: string): number | undefined {
  const stored = DATE.test(text) ? `${text}T00:00:00.000Z` : text;
  if (!STORED_INSTANT.test(stored)) return undefined;
  const instant = Date.parse(stored);
  // Date.parse reads 2026-02-30 as 2026-03-02: only a text it writes back alike names an instant.
  return !Number.isNaN(instant) && new Date(instant).toISOString() === stored ? instant : undefined;
}
