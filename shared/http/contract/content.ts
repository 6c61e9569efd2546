import type * as z from 'zod';
import type { Content, RequestSpec } from '../declaration';

/** Shorthands for declaring bodies. */
export const json = (schema: z.ZodType): Content => ({ 'application/json': schema });
export const jsonBody = (schema: z.ZodType): RequestSpec => ({ required: true, content: json(schema) });
export const formBody = (schema: z.ZodType): RequestSpec => ({ required: false, content: { 'application/x-www-form-urlencoded': schema } });
