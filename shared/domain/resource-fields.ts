import derived from './resource-json-schema.json' with { type: 'json' };

/**
 * Resource fields as JSON Schema: what the predicate, sort and search engines know of the
 * resource. Derived from the resource's schema (`deriveResourceJsonSchema` in resource.ts) by
 * `npm run openapi`, and read from the file it writes: the query functions neither convert zod
 * schemas at their first call nor carry zod's converter (a test keeps the file fresh).
 */
export const resourceJsonSchema = (): object => derived;
