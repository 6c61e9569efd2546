import { JsonValueSchema } from '../../domain/extensions/binding';
import { named } from './schema-names';

export const JsonValue = named('JsonValue', JsonValueSchema, 'Any JSON value.');
