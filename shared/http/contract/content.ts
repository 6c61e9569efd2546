import type * as z from 'zod/mini';
import type { Content, RequestSpec } from '../declaration';

/** Shorthands for declaring bodies. */
export const json = (schema: z.core.$ZodType): Content => ({ 'application/json': schema });
export const jsonBody = (schema: z.core.$ZodType): RequestSpec => ({ required: true, content: json(schema) });
export const formBody = (schema: z.core.$ZodType): RequestSpec => ({ required: false, content: { 'application/x-www-form-urlencoded': schema } });
