import type { JsonValue } from './extensions/binding';

/**
 * Whether a value is a JSON value as `JsonValueSchema` (z.json()) accepts it: strings, finite
 * numbers, booleans, null, and arrays and plain objects of these. A parsed JSON body fails only by
 * a number beyond a double's range (`1e400` parses to Infinity). A plain check, so that storing a
 * JSON value (PUT /{projectKey}/resource/json-serializable-primitive-type) does not load zod; a test holds it equal to the schema.
 */
export function isJsonValue(value: unknown): value is JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(isJsonValue);
      return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isJsonValue);
    default:
      return false;
  }
}
