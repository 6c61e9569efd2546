import { resourceJsonSchema } from '../resource-fields';
import { idPrefixAt } from '../resource-id';
import { fieldSchemaFromJsonSchema, instantOf, type FieldSchema } from './field-schema';
import { compilePredicate, type DocumentPredicate, type PredicateVariables } from './predicate-evaluator';
import { parsePredicate, type PredicateNode, type ValueNode } from './predicate-parser';
import { compileSort, type DocumentComparator } from './sort';

let fields: FieldSchema | undefined;

/** The resource's fields, as the query language sees them (made on first use). */
export const resourceFields = (): FieldSchema => (fields ??= fieldSchemaFromJsonSchema(resourceJsonSchema()));

/**
 * How to answer a query. The predicate and the sort are always evaluated in full (the evaluator
 * is the reference semantics); what the plan adds is which resources can possibly match, and in
 * which order the store can hand them over, read off the top-level conjuncts and the first sort:
 *
 * - `id = / in` names the candidates (`ids`), `key = / in` too (`keys`, through the sentinels);
 * - `id >, >=, <, <=` bound the id range; `createdAt` ranges bound it too when ids are
 *   creation-ordered (resource-id.ts), as they are in every project without older resources;
 * - a first sort on `id` or (ordered ids) `createdAt` is the store's own order, ascending or
 *   reversed, so a page is complete after about one page of reads;
 * - a first sort on `lastModifiedAt`, or `lastModifiedAt` ranges, name a range and order of the
 *   deployment's optional `lastModifiedAt` index (`lastModifiedAccess`), used when it exists.
 */
export interface QueryPlan {
  matches: DocumentPredicate;
  compare: DocumentComparator;
  /** Some `where` was given. */
  filtered: boolean;
  /** Whether `where` reads no top-level field but these (true without `where`): they alone decide `matches`. */
  readsOnly(fields: readonly string[]): boolean;
  /** Only resources with one of these ids can match. */
  ids?: readonly string[];
  /** Only resources with one of these keys can match. */
  keys?: readonly string[];
  /** The store range to read and the order it comes in, given whether the project's ids are creation-ordered. */
  access(idsInCreationOrder: boolean): StoreAccess;
  /** Whether `access` depends on the project's ids being creation-ordered. */
  usesCreationOrder: boolean;
  /** The range and order of the `lastModifiedAt` index that answers this query, if one would. */
  lastModifiedAccess?: LastModifiedAccess;
}

export interface LastModifiedAccess {
  /** Inclusive bounds, as stored instants (`toISOString`): a superset of the predicate's range. */
  from?: string;
  to?: string;
  /** Some bound was given: the range is narrower than the project. */
  bounded: boolean;
  descending: boolean;
  /** As in StoreAccess: set when the first sort is on `lastModifiedAt`. */
  streamOrder?: DocumentComparator;
}

export interface StoreAccess {
  fromId?: string;
  toId?: string;
  descending: boolean;
  /**
   * The order the store's stream comes in, coarser than or equal to `compare` (documents it
   * orders, `compare` orders the same way): once a page is full, the first document that sorts
   * after the page's last in this order ends the reading. Undefined: no useful order.
   */
  streamOrder?: DocumentComparator;
}

export function planQuery(request: { where: readonly string[]; sort: readonly string[]; variables: PredicateVariables }): QueryPlan {
  const predicates = request.where.map((where) => parsePredicate(where));
  const compiled = predicates.map((predicate) => compilePredicate(predicate, { schema: resourceFields(), variables: request.variables }));
  const conjuncts = predicates.flatMap(topLevelConjuncts);
  const values = (value: ValueNode) => valuesOf(value, request.variables);

  const ids = candidates(conjuncts, 'id', values);
  const keys = candidates(conjuncts, 'key', values);
  const idBounds = bounds(conjuncts, 'id', values, (text) => text);
  const createdAtBounds = bounds(conjuncts, 'createdAt', values, instantOf);
  const firstSort = parseFirstSort(request.sort[0]);
  const byCreation = firstSort?.field === 'createdAt';
  const lastModifiedAccess = lastModifiedAccessOf(
    firstSort,
    bounds(conjuncts, 'lastModifiedAt', values, instantOf),
    // Another store range or order already narrows the read: that one is taken.
    idBounds.from !== undefined || idBounds.to !== undefined || createdAtBounds.from !== undefined || createdAtBounds.to !== undefined || firstSort !== undefined,
  );

  return {
    matches: (doc) => compiled.every((matches) => matches(doc)),
    compare: compileSort([...request.sort], resourceFields()),
    filtered: predicates.length > 0,
    readsOnly: (only) => predicates.every((predicate) => fieldsRead(predicate).every((field) => only.includes(field))),
    ...(ids ? { ids } : {}),
    ...(keys ? { keys } : {}),
    ...(lastModifiedAccess ? { lastModifiedAccess } : {}),
    usesCreationOrder: byCreation || createdAtBounds.from !== undefined || createdAtBounds.to !== undefined,
    access(idsInCreationOrder) {
      let { from: fromId, to: toId } = idBounds;
      if (idsInCreationOrder) {
        if (createdAtBounds.from !== undefined) fromId = highest(fromId, idPrefixAt(Math.floor(createdAtBounds.from)));
        if (createdAtBounds.to !== undefined) toId = lowest(toId, idPrefixAt(Math.floor(createdAtBounds.to)));
      }
      const range = { ...(fromId === undefined ? {} : { fromId }), ...(toId === undefined ? {} : { toId }) };
      if (request.sort.length === 0) return { ...range, descending: false, streamOrder: byId(1) };
      if (!firstSort) return { ...range, descending: false };
      if (firstSort.field === 'id') return { ...range, descending: firstSort.direction < 0, streamOrder: byId(firstSort.direction) };
      if (byCreation && idsInCreationOrder) {
        return { ...range, descending: firstSort.direction < 0, streamOrder: byCreatedAt(firstSort.direction) };
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
  range: { from?: number; to?: number },
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

/** The top-level fields a predicate reads (`a(b = 1)` reads `a`). */
function fieldsRead(predicate: PredicateNode): string[] {
  if (predicate.kind === 'and' || predicate.kind === 'or') return predicate.operands.flatMap(fieldsRead);
  if (predicate.kind === 'not') return fieldsRead(predicate.operand);
  return [predicate.field.segments[0]!];
}

/** The conjuncts of a predicate at its top level: `a and (b and c)` is a, b, c. */
function topLevelConjuncts(predicate: PredicateNode): PredicateNode[] {
  return predicate.kind === 'and' ? predicate.operands.flatMap(topLevelConjuncts) : [predicate];
}

const onField = (predicate: PredicateNode, field: string) =>
  'field' in predicate && predicate.field.segments.length === 1 && predicate.field.segments[0] === field;

/** Literal strings, or every value a variable is given (a superset is safe: the predicate still decides). */
function valuesOf(value: ValueNode, variables: PredicateVariables): unknown[] {
  return value.kind === 'literal' ? [value.value] : [...(Object.hasOwn(variables, value.name) ? variables[value.name]! : [])];
}

/** The values a field must take, from `field = "…"` and `field in (…)` conjuncts (intersected). */
function candidates(conjuncts: PredicateNode[], field: string, values: (value: ValueNode) => unknown[]): string[] | undefined {
  let result: Set<string> | undefined;
  for (const conjunct of conjuncts) {
    if (!onField(conjunct, field)) continue;
    let named: unknown[] | undefined;
    if (conjunct.kind === 'comparison' && conjunct.operator === '=') named = values(conjunct.value);
    if (conjunct.kind === 'in' && !conjunct.negated) named = conjunct.values.flatMap(values);
    if (!named) continue;
    const strings = new Set(named.filter((value): value is string => typeof value === 'string'));
    result = result ? new Set([...result].filter((value) => strings.has(value))) : strings;
  }
  return result && [...result];
}

/** The tightest bounds (both inclusive, a superset of the matches) from range conjuncts on a field. */
function bounds<T extends string | number>(
  conjuncts: PredicateNode[],
  field: string,
  values: (value: ValueNode) => unknown[],
  read: (text: string) => T | undefined,
): { from?: T; to?: T } {
  let from: T | undefined;
  let to: T | undefined;
  for (const conjunct of conjuncts) {
    if (conjunct.kind !== 'comparison' || !onField(conjunct, field)) continue;
    const [text, ...more] = values(conjunct.value);
    const value = typeof text === 'string' && more.length === 0 ? read(text) : undefined;
    if (value === undefined) continue;
    if (conjunct.operator === '>' || conjunct.operator === '>=') from = highest(from, value);
    if (conjunct.operator === '<' || conjunct.operator === '<=') to = lowest(to, value);
  }
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
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

function byCreatedAt(direction: 1 | -1): DocumentComparator {
  return byInstant('createdAt', direction);
}

function byInstant(field: string, direction: 1 | -1): DocumentComparator {
  return (a, b) => direction * ((instantOf(String(fieldOf(a, field))) ?? 0) - (instantOf(String(fieldOf(b, field))) ?? 0));
}
