/**
 * The field tree that predicates and sort expressions are checked against, derived from the
 * JSON Schema of the resource, plus the few rules on how field values compare.
 */

export type ScalarKind = 'string' | 'number' | 'boolean' | 'datetime';

export interface ScalarFieldSchema {
  readonly kind: ScalarKind;
}

export interface ObjectFieldSchema {
  readonly kind: 'object';
  readonly fields: Readonly<Record<string, FieldSchema>>;
}

export interface ArrayFieldSchema {
  readonly kind: 'array';
  readonly items: FieldSchema;
}

export type FieldSchema = ScalarFieldSchema | ObjectFieldSchema | ArrayFieldSchema;

// ---------------------------------------------------------------------------------------------
// From JSON Schema
// ---------------------------------------------------------------------------------------------

type JsonSchemaNode = Readonly<Record<string, unknown>>;

/**
 * Reads the field tree out of a JSON Schema as zod 4's `z.toJSONSchema` writes it. Fields whose
 * schema has no single supported type (unions, `{}` for unrepresentable types) are left out:
 * a predicate naming them gets "unknown field" rather than a guess at their type.
 */
export function fieldSchemaFromJsonSchema(jsonSchema: object): FieldSchema {
  const root = new JsonSchemaReader(jsonSchema as JsonSchemaNode).read(jsonSchema);
  if (root?.kind !== 'object') throw new Error('The JSON Schema of a queryable resource must describe an object');
  return root;
}

class JsonSchemaReader {
  private readonly root: JsonSchemaNode;
  /** `$ref`s being expanded right now: a recursive type is cut where it refers to itself. */
  private readonly expanding = new Set<string>();

  constructor(root: JsonSchemaNode) {
    this.root = root;
  }

  read(node: unknown): FieldSchema | undefined {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref === 'string') return this.readReference(node.$ref);
    const union = node.anyOf ?? node.oneOf;
    if (Array.isArray(union)) return this.readNullable(union);
    switch (singleType(node.type)) {
      case 'object':
        return this.readObject(node);
      case 'array':
        return this.readArray(node);
      case 'string':
        return { kind: node.format === 'date-time' ? 'datetime' : 'string' };
      case 'number':
      case 'integer':
        return { kind: 'number' };
      case 'boolean':
        return { kind: 'boolean' };
      default:
        return undefined;
    }
  }

  private readObject(node: JsonSchemaNode): ObjectFieldSchema {
    const properties = isObject(node.properties) ? node.properties : {};
    const fields = Object.entries(properties).flatMap(([name, property]) => {
      const field = this.read(property);
      return field ? [[name, field] as const] : [];
    });
    // fromEntries defines own properties, so even a field called "__proto__" stays a field.
    return { kind: 'object', fields: Object.fromEntries(fields) };
  }

  private readArray(node: JsonSchemaNode): ArrayFieldSchema | undefined {
    const items = this.read(node.items);
    return items && { kind: 'array', items };
  }

  /** `T | null` is just an optional T for querying; any other union has no single type. */
  private readNullable(branches: readonly unknown[]): FieldSchema | undefined {
    const nonNull = branches.filter((branch) => !(isObject(branch) && branch.type === 'null'));
    return nonNull.length === 1 ? this.read(nonNull[0]) : undefined;
  }

  private readReference(reference: string): FieldSchema | undefined {
    if (this.expanding.has(reference)) return undefined;
    this.expanding.add(reference);
    try {
      return this.read(this.resolvePointer(reference));
    } finally {
      this.expanding.delete(reference);
    }
  }

  /** Only local references (`#/$defs/Name`) occur in a schema that zod wrote in one piece. */
  private resolvePointer(reference: string): unknown {
    if (!reference.startsWith('#')) return undefined;
    const tokens = reference.slice(1).split('/').filter(Boolean).map(unescapePointerToken);
    return tokens.reduce<unknown>((node, token) => (isObject(node) && Object.hasOwn(node, token) ? node[token] : undefined), this.root);
  }
}

/** `"string"`, or `["string", "null"]` for a nullable string; several real types mean none. */
function singleType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (!Array.isArray(type)) return undefined;
  const nonNull = type.filter((entry) => entry !== 'null');
  return nonNull.length === 1 && typeof nonNull[0] === 'string' ? nonNull[0] : undefined;
}

function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

// ---------------------------------------------------------------------------------------------
// Walking the field tree
// ---------------------------------------------------------------------------------------------

export function isScalar(field: FieldSchema): field is ScalarFieldSchema {
  return field.kind !== 'object' && field.kind !== 'array';
}

/** The field `name` of an object schema; own fields only, so "constructor" is not a field. */
export function fieldNamed(scope: ObjectFieldSchema, name: string): FieldSchema | undefined {
  return Object.hasOwn(scope.fields, name) ? scope.fields[name] : undefined;
}

/** The object whose fields can be named inside `field`: the field itself, or its array's elements. */
export function objectWithin(field: FieldSchema): ObjectFieldSchema | undefined {
  const inner = field.kind === 'array' ? field.items : field;
  return inner.kind === 'object' ? inner : undefined;
}

/** The kind of the values `field` holds: its own, or its array's elements'. */
export function scalarKindWithin(field: FieldSchema): ScalarKind | undefined {
  const inner = field.kind === 'array' ? field.items : field;
  return isScalar(inner) ? inner.kind : undefined;
}

/** The root of a queryable resource; anything else is a programming error, not a bad query. */
export function requireObjectSchema(schema: FieldSchema): ObjectFieldSchema {
  if (schema.kind !== 'object') throw new TypeError(`A query schema must describe an object, not ${describeField(schema)}`);
  return schema;
}

const SCALAR_NOUNS: Readonly<Record<ScalarKind, { one: string; many: string }>> = {
  string: { one: 'a string', many: 'strings' },
  number: { one: 'a number', many: 'numbers' },
  boolean: { one: 'a boolean', many: 'booleans' },
  datetime: { one: 'a date-time', many: 'date-times' },
};

/** "a number", "an array of objects", ... for error messages. */
export function describeField(field: FieldSchema): string {
  if (field.kind === 'object') return 'an object';
  if (field.kind === 'array') return `an array of ${describeValues(field.items)}`;
  return SCALAR_NOUNS[field.kind].one;
}

/** "numbers", "date-times", ... : what a field of this kind holds. */
export function describeValues(field: FieldSchema): string {
  if (field.kind === 'object') return 'objects';
  if (field.kind === 'array') return 'arrays';
  return SCALAR_NOUNS[field.kind].many;
}

// ---------------------------------------------------------------------------------------------
// Reading and comparing values
// ---------------------------------------------------------------------------------------------

/** A field value reduced to what it compares by: date-times become epoch milliseconds. */
export type Comparable = string | number | boolean;

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of a document's own property; undefined when absent or when `target` is no object. */
export function propertyOf(target: unknown, name: string): unknown {
  return isObject(target) && Object.hasOwn(target, name) ? target[name] : undefined;
}

/** JSON null and an absent property both mean "no value". */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * `raw` as a Comparable of `kind`, or undefined when it is not a value of that kind (absent,
 * null, or a document that does not follow its schema): such a value never matches.
 */
export function comparableValue(kind: ScalarKind, raw: unknown): Comparable | undefined {
  switch (kind) {
    case 'datetime':
      return typeof raw === 'string' ? instantOf(raw) : undefined;
    case 'number':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
    default:
      return typeof raw === kind ? (raw as Comparable) : undefined;
  }
}

/** Total order within one kind: numbers and instants numerically, strings by UTF-16 code unit, false < true. */
export function compareValues(left: Comparable, right: Comparable): number {
  if (left < right) return -1;
  return left > right ? 1 : 0;
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Epoch milliseconds of an ISO 8601 date or date-time, or undefined when `text` is not one.
 * Stricter than Date.parse, which takes "2024-02-30" as March 1st and many non-ISO forms.
 * A date-time without a zone is read as UTC, never as the server's local time.
 */
export function instantOf(text: string): number | undefined {
  const match = ISO_8601.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', zone] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const hasTime = match[4] !== undefined;
  const millis = Date.parse(hasTime && zone === undefined ? `${text}Z` : text);
  return Number.isFinite(millis) ? millis : undefined;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}
