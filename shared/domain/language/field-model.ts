/**
 * The one reading of a resource's JSON Schema (as zod 4's `z.toJSONSchema` writes it) into the
 * fields its documents hold. Both languages name fields through this model: `where` and `sort`
 * through its typed view (query/field-schema.ts), search through its field catalog
 * (search/field-catalog.ts).
 */

export type ScalarKind = 'string' | 'number' | 'boolean' | 'datetime';

export interface ScalarFieldModel {
  readonly kind: ScalarKind;
}

export interface ObjectFieldModel {
  readonly kind: 'object';
  readonly fields: Readonly<Record<string, FieldModel>>;
}

export interface ArrayFieldModel {
  readonly kind: 'array';
  readonly items: FieldModel;
}

/**
 * A field the schema declares without one supported type: a union, `{}` (how zod writes a type
 * JSON Schema cannot express), an array without `items`, or a type's recursion into itself.
 */
export interface UntypedFieldModel {
  readonly kind: 'untyped';
}

export type FieldModel = ScalarFieldModel | ObjectFieldModel | ArrayFieldModel | UntypedFieldModel;

type JsonSchemaNode = Readonly<Record<string, unknown>>;

const models = new WeakMap<object, FieldModel>();

/** The model of a JSON Schema; read once per schema object, however often it is asked for. */
export function fieldModelFromJsonSchema(jsonSchema: object): FieldModel {
  let model = models.get(jsonSchema);
  if (!model) {
    model = new JsonSchemaReader(jsonSchema as JsonSchemaNode).read(jsonSchema) ?? UNTYPED;
    models.set(jsonSchema, model);
  }
  return model;
}

/** The field `name` of an object; own fields only, so "constructor" is not a field. */
export function fieldOf(object: ObjectFieldModel, name: string): FieldModel | undefined {
  return Object.hasOwn(object.fields, name) ? object.fields[name] : undefined;
}

/** What a field holds once arrays (of arrays) are looked through: an array of numbers holds numbers. */
export function elementsOf(field: FieldModel): Exclude<FieldModel, ArrayFieldModel> {
  return field.kind === 'array' ? elementsOf(field.items) : field;
}

const UNTYPED: UntypedFieldModel = { kind: 'untyped' };

class JsonSchemaReader {
  private readonly root: JsonSchemaNode;
  /** `$ref`s being expanded right now: a recursive type is cut where it refers to itself. */
  private readonly expanding = new Set<string>();

  constructor(root: JsonSchemaNode) {
    this.root = root;
  }

  /** The model of a schema node; undefined when `node` is no schema at all (the field is left out). */
  read(node: unknown): FieldModel | undefined {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref === 'string') return this.readReference(node.$ref);
    const union = node.anyOf ?? node.oneOf;
    if (Array.isArray(union)) return this.readNullable(union);
    switch (singleType(node.type)) {
      case 'object':
        return this.readObject(node);
      case 'array':
        return { kind: 'array', items: this.read(node.items) ?? UNTYPED };
      case 'string':
        return { kind: node.format === 'date-time' ? 'datetime' : 'string' };
      case 'number':
        return { kind: 'number' };
      case 'boolean':
        return { kind: 'boolean' };
      default:
        return UNTYPED;
    }
  }

  private readObject(node: JsonSchemaNode): ObjectFieldModel {
    const properties = isObject(node.properties) ? node.properties : {};
    const fields = Object.entries(properties).flatMap(([name, property]) => {
      const field = this.read(property);
      return field ? [[name, field] as const] : [];
    });
    // fromEntries defines own properties, so even a field called "__proto__" stays a field.
    return { kind: 'object', fields: Object.fromEntries(fields) };
  }

  /** `T | null` is just an optional T; any other union has no single type. */
  private readNullable(branches: readonly unknown[]): FieldModel {
    const nonNull = branches.filter((branch) => !(isObject(branch) && branch.type === 'null'));
    return (nonNull.length === 1 ? this.read(nonNull[0]) : undefined) ?? UNTYPED;
  }

  private readReference(reference: string): FieldModel {
    if (this.expanding.has(reference)) return UNTYPED;
    this.expanding.add(reference);
    try {
      return this.read(this.resolvePointer(reference)) ?? UNTYPED;
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

/**
 * `"string"`, or `["string", "null"]` for a nullable string; `integer` is a number. Several
 * real types mean none.
 */
function singleType(type: unknown): string | undefined {
  const types = (Array.isArray(type) ? type : [type]).map((entry) => (entry === 'integer' ? 'number' : entry));
  const nonNull = [...new Set(types)].filter((entry) => entry !== 'null');
  return nonNull.length === 1 && typeof nonNull[0] === 'string' ? nonNull[0] : undefined;
}

function unescapePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

function isObject(value: unknown): value is JsonSchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
