import type { Content, RequestSpec } from '../declaration';
import type { SchemaName } from './schemas';

/** Shorthands for declaring bodies, by their schema's name in the catalogue (schemas.ts). */
export const json = (schema: SchemaName): Content => ({ 'application/json': schema });
export const jsonBody = (schema: SchemaName): RequestSpec => ({ required: true, content: json(schema) });
export const formBody = (schema: SchemaName): RequestSpec => ({ required: false, content: { 'application/x-www-form-urlencoded': schema } });
