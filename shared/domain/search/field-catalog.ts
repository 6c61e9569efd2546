/**
 * Which fields a search may name, and of what kind, read from the resource's JSON Schema
 * (as `z.toJSONSchema` writes it). Arrays count as their elements: a field holding an array of
 * numbers is a number field.
 */

/** `other` fields (objects, booleans, …) exist but hold no value a filter can compare. */
export type FieldKind = 'number' | 'text' | 'other';

export interface Field {
  /** The path as written, e.g. `objectTypeProperty.arrayOfIntExample`. */
  path: string;
  segments: readonly string[];
  kind: FieldKind;
}

type JsonSchema = Readonly<Record<string, unknown>>;

export class FieldCatalog {
  private readonly root: JsonSchema;

  constructor(jsonSchema: object) {
    this.root = jsonSchema as JsonSchema;
  }

  /** The field at a dotted path, or undefined when the schema has no such field. */
  lookup(path: string): Field | undefined {
    const segments = path.split('.');
    let schema: JsonSchema | undefined = this.elementSchema(this.root);
    for (const name of segments) {
      schema = schema && this.propertySchema(schema, name);
    }
    return schema && { path, segments, kind: kindOf(schema) };
  }

  private propertySchema(schema: JsonSchema, name: string): JsonSchema | undefined {
    const properties = schema['properties'];
    if (!isSchema(properties) || !Object.hasOwn(properties, name)) return undefined;
    const property = properties[name];
    return isSchema(property) ? this.elementSchema(property) : undefined;
  }

  /** Looks through references, arrays and `X or null` to the schema of the values themselves. */
  private elementSchema(schema: JsonSchema, seen = new Set<JsonSchema>()): JsonSchema {
    if (seen.has(schema)) return schema; // a reference cycle: stop rather than loop
    seen.add(schema);
    const referenced = this.resolveReference(schema);
    if (referenced) return this.elementSchema(referenced, seen);
    const items = schema['items'];
    if (typesOf(schema).includes('array') && isSchema(items)) return this.elementSchema(items, seen);
    const single = soleNonNullAlternative(schema);
    if (single) return this.elementSchema(single, seen);
    return schema;
  }

  /** Resolves a local `$ref` such as `#/$defs/Element`. */
  private resolveReference(schema: JsonSchema): JsonSchema | undefined {
    const reference = schema['$ref'];
    if (typeof reference !== 'string' || !reference.startsWith('#')) return undefined;
    let target: unknown = this.root;
    for (const token of reference.slice(1).split('/').filter((part) => part !== '')) {
      const name = token.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isSchema(target) && Object.hasOwn(target, name) ? target[name] : undefined;
    }
    return isSchema(target) ? target : undefined;
  }
}

function kindOf(schema: JsonSchema): FieldKind {
  const types = typesOf(schema).filter((type) => type !== 'null');
  if (types.length > 0 && types.every((type) => type === 'number' || type === 'integer')) return 'number';
  if (types.length === 1 && types[0] === 'string') return 'text';
  return 'other';
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** The one alternative of an `anyOf`/`oneOf` besides `null` (how optional-or-null is written). */
function soleNonNullAlternative(schema: JsonSchema): JsonSchema | undefined {
  const alternatives = schema['anyOf'] ?? schema['oneOf'];
  if (!Array.isArray(alternatives)) return undefined;
  const nonNull = alternatives.filter(isSchema).filter((alternative) => alternative['type'] !== 'null');
  return nonNull.length === 1 ? nonNull[0] : undefined;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
