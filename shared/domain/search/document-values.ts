/** Reading resource documents: plain JSON values of unknown shape. */
import { instantOf } from '../query/field-values';
import type { Field, FieldKind } from './field-catalog';
import type { SearchValue } from './search-model';

/**
 * The values a document holds at a field path. Arrays met on the way or at the end are
 * flattened, so `objectTypeProperty.arrayOfObjectType.integerExample` yields one number per
 * element. `null` and absent values yield nothing.
 */
export function valuesAt(doc: unknown, path: readonly string[]): unknown[] {
  const found: unknown[] = [];
  collectValues(doc, path, 0, found);
  return found;
}

function collectValues(value: unknown, path: readonly string[], depth: number, found: unknown[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const element of value) collectValues(element, path, depth, found);
    return;
  }
  const name = path[depth];
  if (name === undefined) {
    found.push(value);
    return;
  }
  if (typeof value !== 'object' || !Object.hasOwn(value, name)) return;
  collectValues((value as Record<string, unknown>)[name], path, depth + 1, found);
}

/** A document's values at a field as search compares them, each as often as held; values of another kind are none. */
export function searchValuesAt(doc: unknown, field: Field): SearchValue[] {
  return valuesAt(doc, field.segments).flatMap((raw) => searchValueOf(field.kind, raw) ?? []);
}

/** A value of a field's kind: a finite number, an ISO 8601 instant as epoch milliseconds (as `where` reads it), a string. */
export function searchValueOf(kind: FieldKind, raw: unknown): SearchValue | undefined {
  if (kind === 'number') return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
  if (kind === 'datetime') return typeof raw === 'string' ? instantOf(raw) : undefined;
  return kind === 'text' && typeof raw === 'string' ? raw : undefined;
}

/** Calls `visit` with every string value anywhere in a document (never with object keys) and the field it is at: its object keys joined by dots, arrays looked through. */
export function forEachString(value: unknown, visit: (text: string, field: string) => void, field = ''): void {
  if (typeof value === 'string') {
    visit(value, field);
  } else if (Array.isArray(value)) {
    for (const element of value) forEachString(element, visit, field);
  } else if (typeof value === 'object' && value !== null) {
    for (const [name, member] of Object.entries(value)) forEachString(member, visit, field === '' ? name : `${field}.${name}`);
  }
}
