import type * as z from 'zod/mini';
import { InterfaceObjectTestType } from '../../domain/resource';
import type { SchemaName } from './schemas';

/**
 * The schema of the document a `json` query parameter must fit: its name in the schema catalogue
 * (the OpenAPI builder refers to it) and its zod schema from the domain (not the catalogue, which
 * functions do not carry).
 */
export interface NamedShape {
  name: SchemaName;
  /** Whether a parsed value has the schema's shape. */
  accepts(value: unknown): boolean;
}

/**
 * Shaped like the schema: types, required and unknown fields, lengths and bounds. The refinements
 * of a stored resource (zod's `custom` issues: unique values, DynamoDB's number range) are not
 * asked of a parameter that narrows nothing.
 */
function namedShape(name: SchemaName, schema: z.ZodMiniType): NamedShape {
  return {
    name,
    accepts: (value) => {
      const result = schema.safeParse(value);
      return result.success || result.error.issues.every((issue) => issue.code === 'custom');
    },
  };
}

/** The `unionParameter` of GET /{projectKey}/resource in its JSON form. */
export const INTERFACE_OBJECT_TEST_TYPE = namedShape('InterfaceObjectTestType', InterfaceObjectTestType);
