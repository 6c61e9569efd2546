/**
 * The `sort` query parameter: each entry is `<field path> asc|desc`, e.g. `createdAt desc` or
 * `objectTypeProperty.arrayOfFloatExample asc`, read with the tokens of `where`:
 *
 *   sort := fieldPath ("asc" | "desc") END              -- keywords in any case
 *
 * Entries apply in order; documents they leave tied fall back to `id asc`, so every page of a
 * query comes in the same order.
 */
import type { FieldModel, ObjectFieldModel, ScalarKind } from '../language/field-model.js';
import { fieldPathFrom, type FieldPathSyntax } from '../language/field-path.js';
import { MAX_SORT_LENGTH } from '../limits';
import { describeField, fieldNamed, isScalar, objectWithin, scalarKindWithin } from './field-schema.js';
import { type Comparable, comparableValue, compareValues, propertyOf } from './field-values.js';
import { predicateTokens } from './predicate-lexer.js';
import { queryError } from './query-error.js';

export type DocumentComparator = (a: unknown, b: unknown) => number;

type Direction = 1 | -1;

export interface SortKey {
  readonly path: readonly string[];
  readonly kind: ScalarKind;
  readonly direction: Direction;
}

/** A comparator for Array.prototype.sort (which is stable) that orders documents by the given sort parameters. Throws a ParameterError for an unknown field or direction. */
export function compileSort(sorts: readonly string[], root: ObjectFieldModel): DocumentComparator {
  const comparators = sortKeys(sorts, root).map(keyComparator);
  return (a, b) => {
    for (const compare of comparators) {
      const order = compare(a, b);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** The keys of the sort parameters in order, then `id asc` unless they sort by id. Throws a ParameterError. */
export function sortKeys(sorts: readonly string[], root: ObjectFieldModel): SortKey[] {
  const keys = sorts.map((sort) => parseSortKey(sort, root));
  return [...keys, ...idTiebreak(keys, root)];
}

function parseSortKey(sort: string, root: ObjectFieldModel): SortKey {
  if (sort.length > MAX_SORT_LENGTH) {
    throw queryError('sort', `Sort expression is ${sort.length} characters long, more than the ${MAX_SORT_LENGTH} allowed`);
  }
  const tokens = predicateTokens('sort', sort);
  const field = fieldPathFrom(tokens.expect('word', "'<field> asc' or '<field> desc'"), tokens);
  const kind = sortableKind(field, root);
  const direction = tokens.acceptKeyword('asc') ? 1 : tokens.acceptKeyword('desc') ? -1 : tokens.fail("'asc' or 'desc'");
  tokens.expect('end', 'the end of the sort expression');
  return { path: field.segments, kind, direction };
}

/** A dotted path may pass through objects and arrays of objects, and must end at values. */
function sortableKind({ segments, column }: FieldPathSyntax, root: ObjectFieldModel): ScalarKind {
  let scope = root;
  for (const [index, name] of segments.entries()) {
    const walked = segments.slice(0, index + 1).join('.');
    const field = fieldNamed(scope, name);
    if (!field) throw queryError('sort', `Unknown field '${walked}'`, { column });
    if (index === segments.length - 1) return valueKind(field, walked, column);
    const inner = objectWithin(field);
    if (!inner) throw queryError('sort', `Unknown field '${segments.join('.')}': '${walked}' is ${describeField(field)}`, { column });
    scope = inner;
  }
  throw new Error('A field path has at least one name');
}

function valueKind(field: FieldModel, path: string, column: number): ScalarKind {
  const kind = scalarKindWithin(field);
  if (kind === undefined) {
    throw queryError('sort', `Cannot sort by '${path}', which is ${describeField(field)}`, {
      column,
      expected: 'a field holding strings, numbers, booleans or date-times',
    });
  }
  return kind;
}

/** commercetools breaks ties by id, so paging through equal keys neither skips nor repeats documents. */
function idTiebreak(keys: readonly SortKey[], root: ObjectFieldModel): SortKey[] {
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
