import { JsonValueSchema, type JsonValue } from '../domain/extensions/binding';
import { InvalidJsonInputError } from '../domain/errors';
import type { JsonValueStore } from '../store/json-value-store';

/** Row 17: any JSON value, stored for the project and answered back. */
export class JsonValueService {
  constructor(private readonly store: JsonValueStore) {}

  async put(projectKey: string, value: unknown): Promise<JsonValue> {
    const parsed = JsonValueSchema.safeParse(value);
    if (!parsed.success) throw new InvalidJsonInputError('The body holds a number that is not a finite double.');
    await this.store.put(projectKey, parsed.data);
    return parsed.data;
  }
}
