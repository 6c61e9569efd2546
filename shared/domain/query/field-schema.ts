/**
 * The field tree that predicates and sort expressions are checked against: the typed view of the
 * resource's field model (language/field-model.ts). Fields without one supported type are left
 * out, so a predicate naming them gets "unknown field" rather than a guess at their type.
 */
import { fieldModelFromJsonSchema, type FieldModel, type ScalarKind } from '../language/field-model';

export type { ScalarKind };
// Value comparison used to live here; importers of these names keep working.
export { compareValues, comparableValue, instantOf, isObject, isPresent, propertyOf, type Comparable } from './field-values';

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

/** The typed field tree of a resource's JSON Schema (as zod 4's `z.toJSONSchema` writes it). */
export function fieldSchemaFromJsonSchema(jsonSchema: object): FieldSchema {
  const root = typedView(fieldModelFromJsonSchema(jsonSchema));
  if (root?.kind !== 'object') throw new Error('The JSON Schema of a queryable resource must describe an object');
  return root;
}

/** The model without untyped fields, and without arrays of them. */
function typedView(field: FieldModel): FieldSchema | undefined {
  switch (field.kind) {
    case 'untyped':
      return undefined;
    case 'array': {
      const items = typedView(field.items);
      return items && { kind: 'array', items };
    }
    case 'object': {
      const fields = Object.entries(field.fields).flatMap(([name, inner]) => {
        const typed = typedView(inner);
        return typed ? [[name, typed] as const] : [];
      });
      // fromEntries defines own properties, so even a field called "__proto__" stays a field.
      return { kind: 'object', fields: Object.fromEntries(fields) };
    }
    default:
      return { kind: field.kind };
  }
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
