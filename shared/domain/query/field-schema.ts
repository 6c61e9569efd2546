/**
 * The fields `where` predicates and `sort` expressions may name: the resource's field model
 * (language/field-model.ts), seen through `fieldNamed`, which hides fields without one supported
 * type (and arrays of them), so a predicate naming one gets "unknown field" rather than a guess
 * at its type.
 */
import { elementsOf, fieldModelFromJsonSchema, fieldOf, type FieldModel, type ObjectFieldModel, type ScalarFieldModel, type ScalarKind } from '../language/field-model';

/** The fields of a queryable resource; a schema of anything but an object is a programming error. */
export function queryableFields(jsonSchema: object): ObjectFieldModel {
  const root = fieldModelFromJsonSchema(jsonSchema);
  if (root.kind !== 'object') throw new Error('The JSON Schema of a queryable resource must describe an object');
  return root;
}

/** The field `name` of an object, unless it has no single type. */
export function fieldNamed(scope: ObjectFieldModel, name: string): FieldModel | undefined {
  const field = fieldOf(scope, name);
  return field && elementsOf(field).kind !== 'untyped' ? field : undefined;
}

/** A table over the scalar kinds, so a new one does not compile until it is listed here. */
const SCALAR_KINDS: Readonly<Record<ScalarKind, true>> = { string: true, number: true, boolean: true, datetime: true };

export function isScalar(field: FieldModel): field is ScalarFieldModel {
  return Object.hasOwn(SCALAR_KINDS, field.kind);
}

/** The object whose fields can be named inside `field`: the field itself, or its array's elements. */
export function objectWithin(field: FieldModel): ObjectFieldModel | undefined {
  const inner = field.kind === 'array' ? field.items : field;
  return inner.kind === 'object' ? inner : undefined;
}

/** The kind of the values `field` holds: its own, or its array's elements'. */
export function scalarKindWithin(field: FieldModel): ScalarKind | undefined {
  const inner = field.kind === 'array' ? field.items : field;
  return isScalar(inner) ? inner.kind : undefined;
}

const NOUNS: Readonly<Record<Exclude<FieldModel['kind'], 'array'>, { one: string; many: string }>> = {
  string: { one: 'a string', many: 'strings' },
  number: { one: 'a number', many: 'numbers' },
  boolean: { one: 'a boolean', many: 'booleans' },
  datetime: { one: 'a date-time', many: 'date-times' },
  object: { one: 'an object', many: 'objects' },
  untyped: { one: 'a value of no single type', many: 'values of no single type' },
};

/** "a number", "an array of objects", ... for error messages. */
export function describeField(field: FieldModel): string {
  return field.kind === 'array' ? `an array of ${describeValues(field.items)}` : NOUNS[field.kind].one;
}

/** "numbers", "date-times", ... : what a field of this kind holds. */
export function describeValues(field: FieldModel): string {
  return field.kind === 'array' ? 'arrays' : NOUNS[field.kind].many;
}
