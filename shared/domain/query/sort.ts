/**
 * The `sort` query parameter: each entry is `<field path> asc|desc`, e.g. `createdAt desc` or
 * `objectTypeProperty.arrayOfFloatExample asc`. Entries apply in order; documents they leave
 * tied fall back to `id asc`, so every page of a query comes in the same order.
 */
import {
  type Comparable,
  type FieldSchema,
  type ObjectFieldSchema,
  type ScalarKind,
  comparableValue,
  compareValues,
  describeField,
  fieldNamed,
  isScalar,
  objectWithin,
  propertyOf,
  requireObjectSchema,
  scalarKindWithin,
} from './field-schema.js';
import { MAX_SORT_LENGTH } from '../limits';
import { QueryError } from './query-error.js';

export type DocumentComparator = (a: unknown, b: unknown) => number;

type Direction = 1 | -1;

export interface SortKey {
  readonly path: readonly string[];
  readonly kind: ScalarKind;
  readonly direction: Direction;
}

interface Word {
  readonly text: string;
  readonly position: number;
}

const PARAMETER = 'sort';
const DIRECTIONS: ReadonlyMap<string, Direction> = new Map([
  ['asc', 1],
  ['desc', -1],
]);

/**
 * A comparator for Array.prototype.sort (which is stable) that orders documents by the given
 * sort parameters. Throws QueryError for an unknown field or direction.
 */
export function compileSort(sorts: readonly string[], schema: FieldSchema): DocumentComparator {
  const comparators = sortKeys(sorts, schema).map(keyComparator);
  return (a, b) => {
    for (const compare of comparators) {
      const order = compare(a, b);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** The keys of the sort parameters in order, then `id asc` unless they sort by id. Throws QueryError. */
export function sortKeys(sorts: readonly string[], schema: FieldSchema): SortKey[] {
  const root = requireObjectSchema(schema);
  const keys = sorts.map((sort) => parseSortKey(sort, root));
  return [...keys, ...idTiebreak(keys, root)];
}

function parseSortKey(sort: string, root: ObjectFieldSchema): SortKey {
  if (sort.length > MAX_SORT_LENGTH) {
    throw new QueryError(PARAMETER, `Sort expression is ${sort.length} characters long, more than the ${MAX_SORT_LENGTH} allowed`);
  }
  const [field, direction, extra] = wordsOf(sort);
  if (!field) throw new QueryError(PARAMETER, 'Empty sort expression', { position: 0, expected: "'<field> asc' or '<field> desc'" });
  const { path, kind } = resolveSortField(field, root);
  if (!direction) {
    throw new QueryError(PARAMETER, `Missing sort direction after '${field.text}'`, { position: sort.length, expected: "'asc' or 'desc'" });
  }
  if (extra) throw new QueryError(PARAMETER, `Unexpected '${extra.text}' after the sort direction`, { position: extra.position });
  return { path, kind, direction: parseDirection(direction) };
}

function wordsOf(text: string): Word[] {
  return Array.from(text.matchAll(/\S+/g), (match) => ({ text: match[0], position: match.index }));
}

function parseDirection(word: Word): Direction {
  const direction = DIRECTIONS.get(word.text.toLowerCase());
  if (direction === undefined) {
    throw new QueryError(PARAMETER, `Unknown sort direction '${word.text}'`, { position: word.position, expected: "'asc' or 'desc'" });
  }
  return direction;
}

/** A dotted path may pass through objects and arrays of objects, and must end at values. */
function resolveSortField(word: Word, root: ObjectFieldSchema): { path: string[]; kind: ScalarKind } {
  const path = word.text.split('.');
  let scope = root;
  for (const [index, name] of path.entries()) {
    const walked = path.slice(0, index + 1).join('.');
    const field = fieldNamed(scope, name);
    if (!field) throw new QueryError(PARAMETER, `Unknown field '${walked}'`, { position: word.position });
    if (index === path.length - 1) return { path, kind: sortableKind(field, walked, word.position) };
    const inner = objectWithin(field);
    if (!inner) {
      throw new QueryError(PARAMETER, `Unknown field '${path.join('.')}': '${walked}' is ${describeField(field)}`, { position: word.position });
    }
    scope = inner;
  }
  // Not reached: split() always yields at least one name, and the last one returns above.
  throw new QueryError(PARAMETER, 'Empty sort expression', { position: word.position });
}

function sortableKind(field: FieldSchema, path: string, position: number): ScalarKind {
  const kind = scalarKindWithin(field);
  if (kind === undefined) {
    throw new QueryError(PARAMETER, `Cannot sort by '${path}', which is ${describeField(field)}`, {
      position,
      expected: 'a field holding strings, numbers, booleans or date-times',
    });
  }
  return kind;
}

/** commercetools breaks ties by id, so paging through equal keys neither skips nor repeats documents. */
function idTiebreak(keys: readonly SortKey[], root: ObjectFieldSchema): SortKey[] {
  if (keys.some((key) => key.path.length === 1 && key.path[0] === 'id')) return [];
  const id = fieldNamed(root, 'id');
  return id && isScalar(id) ? [{ path: ['id'], kind: id.kind, direction: 1 }] : [];
}

/** Documents without a value for the key go last in either direction. */
function keyComparator(key: SortKey): DocumentComparator {
  return (a, b) => {
    const left = sortValue(a, key);
    const right = sortValue(b, key);
    if (left === undefined || right === undefined) return absentLast(left, right);
    return key.direction * compareValues(left, right);
  };
}

function absentLast(left: Comparable | undefined, right: Comparable | undefined): number {
  if (left === undefined && right === undefined) return 0;
  return left === undefined ? 1 : -1;
}

/** Several values (an array, or a path through an array) sort by the smallest ascending and the largest descending, as commercetools does. */
function sortValue(doc: unknown, key: SortKey): Comparable | undefined {
  let best: Comparable | undefined;
  for (const raw of valuesAt(doc, key.path)) {
    const value = comparableValue(key.kind, raw);
    if (value !== undefined && (best === undefined || key.direction * compareValues(value, best) < 0)) best = value;
  }
  return best;
}

/** Every value at `path`, stepping into arrays along the way. */
function valuesAt(doc: unknown, path: readonly string[]): unknown[] {
  return path.reduce<unknown[]>((targets, name) => targets.flatMap((target) => elementsOf(propertyOf(target, name))), [doc]);
}

function elementsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}
