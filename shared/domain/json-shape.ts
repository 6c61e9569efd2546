/**
 * Whether a parsed JSON value has the shape a JSON Schema describes: the keywords that
 * `z.toJSONSchema` writes for the domain's schemas (types, properties, required fields, unknown
 * fields refused, array items and lengths, number bounds, string lengths and patterns). A keyword
 * outside these is not understood, and so the value is refused: the check never passes what it cannot
 * read. zod's refinements (unique values, DynamoDB's number range) have no JSON Schema form and are
 * not checked here: this answers "is it shaped like", as row 1's `unionParameter` asks. A function
 * that carries the generated JSON Schema of a type and this check validates a shape without zod.
 */
export type JsonShape = { readonly [keyword: string]: unknown };

/** The keywords checked below, and `$schema`, which says nothing about the value. */
export const SHAPE_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
]);

export function hasShape(shape: JsonShape, value: unknown): boolean {
  for (const keyword of Object.keys(shape)) if (!SHAPE_KEYWORDS.has(keyword)) return false;
  if (shape.type !== undefined && ![shape.type].flat().some((type) => isOfType(type as string, value))) return false;
  if (typeof value === 'number') return withinBounds(shape, value);
  if (typeof value === 'string') return stringFits(shape, value);
  if (Array.isArray(value)) return arrayFits(shape, value);
  if (typeof value === 'object' && value !== null) return objectFits(shape, value as Record<string, unknown>);
  return true;
}

function isOfType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    case 'null':
      return value === null;
    case 'number':
    case 'string':
    case 'boolean':
      return typeof value === type;
    default:
      return false;
  }
}

const withinBounds = (shape: JsonShape, value: number) =>
  !(typeof shape.minimum === 'number' && value < shape.minimum) && !(typeof shape.maximum === 'number' && value > shape.maximum);

function stringFits(shape: JsonShape, value: string): boolean {
  // Lengths in UTF-16 units and patterns without flags, as zod checks them: its schemas wrote these.
  if (typeof shape.minLength === 'number' && value.length < shape.minLength) return false;
  if (typeof shape.maxLength === 'number' && value.length > shape.maxLength) return false;
  return typeof shape.pattern !== 'string' || new RegExp(shape.pattern).test(value);
}

function arrayFits(shape: JsonShape, value: readonly unknown[]): boolean {
  if (typeof shape.minItems === 'number' && value.length < shape.minItems) return false;
  if (typeof shape.maxItems === 'number' && value.length > shape.maxItems) return false;
  const items = shape.items as JsonShape | undefined;
  return items === undefined || value.every((item) => hasShape(items, item));
}

function objectFits(shape: JsonShape, value: Record<string, unknown>): boolean {
  const properties = (shape.properties ?? {}) as Record<string, JsonShape>;
  for (const name of (shape.required ?? []) as string[]) if (value[name] === undefined) return false;
  for (const [name, field] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (declared) {
      if (!hasShape(declared, field)) return false;
    } else if (shape.additionalProperties === false) {
      return false;
    } else if (typeof shape.additionalProperties === 'object' && !hasShape(shape.additionalProperties as JsonShape, field)) {
      return false;
    }
  }
  return true;
}
