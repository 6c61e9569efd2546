/**
 * How a request names a resource: its id, or its key. Plain patterns, so the functions that only
 * read or delete by id or key check the address without loading the schemas (resource.ts uses the
 * same key pattern; a unit test holds the id check equal to the schema's `z.uuid()`).
 */

/** 2–256 characters of [A-Za-z0-9_-], unique per project. */
export const RESOURCE_KEY_PATTERN = /^[A-Za-z0-9_-]{2,256}$/;

/** zod's `uuid()`: an RFC 9562 UUID of versions 1–8, or the nil or max UUID. */
const UUID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export const isResourceKey = (key: string): boolean => RESOURCE_KEY_PATTERN.test(key);

export const isResourceId = (id: string): boolean => UUID_PATTERN.test(id);
