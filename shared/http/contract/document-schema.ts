import type * as z from 'zod/mini';

/**
 * A schema of the OpenAPI document, listed in the schema catalogue (schemas.ts) under the name
 * declarations refer to it by. Only the document builder reads the catalogue, so no function
 * bundles a schema for its declaration: a function carries the schemas it validates with, no more.
 */
export interface DocumentSchema {
  schema: z.core.$ZodType;
  description?: string;
  /** Written out where it is used instead of listed under components/schemas. */
  inline?: true;
}
