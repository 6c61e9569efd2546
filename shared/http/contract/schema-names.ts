import type * as z from 'zod/mini';

/**
 * The schemas the OpenAPI document lists under components/schemas and refers to by name. A schema
 * is named where it is defined or first composed for the API (an endpoint's declaration, or a
 * shared contract module), so every bundle names only the schemas it carries.
 */
export const namedSchemas = new Map<z.core.$ZodType, { id: string; description?: string }>();

export function named<S extends z.core.$ZodType>(id: string, schema: S, description?: string): S {
  for (const [other, name] of namedSchemas) {
    if (name.id === id && other !== schema) throw new Error(`Two schemas are named ${id}.`);
  }
  namedSchemas.set(schema, { id, ...(description === undefined ? {} : { description }) });
  return schema;
}
