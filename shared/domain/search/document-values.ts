/** Reading resource documents: plain JSON values of unknown shape. */

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

/** Calls `visit` with every string value anywhere in a document (never with object keys). */
export function forEachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') {
    visit(value);
  } else if (Array.isArray(value)) {
    for (const element of value) forEachString(element, visit);
  } else if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) forEachString(member, visit);
  }
}
