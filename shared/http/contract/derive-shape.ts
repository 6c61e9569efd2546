import * as z from 'zod/mini';
import type { JsonShape } from '../../domain/json-shape';
import { documentSchemas, type SchemaName } from './schemas';

/** The JSON Schema of a catalogue schema as a request gives it (zod input), for parameter-shapes.ts. */
export function deriveShape(name: SchemaName): JsonShape {
  const { $schema: _dialect, ...shape } = z.toJSONSchema(documentSchemas[name].schema, { io: 'input', unrepresentable: 'any' });
  return shape;
}

/** The file text `npm run openapi` writes for a shape. */
export const shapeText = (name: SchemaName) => `${JSON.stringify(deriveShape(name), null, 2)}\n`;
