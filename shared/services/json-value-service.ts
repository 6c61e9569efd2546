import { InvalidJsonInputError } from '../domain/errors';
import type { JsonValue } from '../domain/extensions/binding';
import { isJsonValue } from '../domain/json-value';
import type { JsonValueStore } from '../store/json-value-store';

/** PUT /{projectKey}/resource/json-serializable-primitive-type: any JSON value, stored for the project and answered back. */
export class JsonValueService {
  constructor(private readonly store: JsonValueStore) {}

  async put(projectKey: string, value: unknown): Promise<JsonValue> {
    if (!isJsonValue(value)) throw new InvalidJsonInputError('The body holds a number that is not a finite double.');
    await this.store.put(projectKey, value);
    return value;
  }
}
