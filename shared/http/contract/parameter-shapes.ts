import { hasShape, type JsonShape } from '../../domain/json-shape';
import interfaceObjectTestType from './shapes/InterfaceObjectTestType.json' with { type: 'json' };
import type { SchemaName } from './schemas';

/**
 * A schema of the document a `json` query parameter must fit, in two forms from one definition:
 * its name in the schema catalogue (the OpenAPI builder refers to it) and its JSON Schema, written
 * from the catalogue's zod schema by `npm run openapi` (a test keeps it fresh) and checked with
 * domain/json-shape.ts. So the function carries neither zod nor the catalogue, and only the functions
 * that declare such a parameter carry the check.
 */
export interface NamedShape {
  name: SchemaName;
  /** The JSON Schema, as shapes/<name>.json holds it. */
  shape: JsonShape;
  /** Whether a parsed value has the shape. */
  accepts(value: unknown): boolean;
}

function namedShape(name: SchemaName, shape: JsonShape): NamedShape {
  return { name, shape, accepts: (value) => hasShape(shape, value) };
}

/** Row 1's `unionParameter` in its JSON form. */
export const INTERFACE_OBJECT_TEST_TYPE = namedShape('InterfaceObjectTestType', interfaceObjectTestType);

/** Every schema written as a shape, and so the files `npm run openapi` writes under shapes/. */
export const SHAPED_SCHEMAS: readonly NamedShape[] = [INTERFACE_OBJECT_TEST_TYPE];

export const shapeFile = (name: SchemaName) => `shared/http/contract/shapes/${name}.json`;
