import type { JsonValue } from '../domain/extensions/binding';

/** The one JSON value each project keeps (PUT /{projectKey}/resource/json-serializable-primitive-type). */
export interface JsonValueStore {
  /** The project's value; `{ found: false }` when it never stored one. */
  get(projectKey: string): Promise<{ found: true; value: JsonValue } | { found: false }>;
  put(projectKey: string, value: JsonValue): Promise<void>;
}
