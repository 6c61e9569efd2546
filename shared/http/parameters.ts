import type * as z from 'zod/mini';
import type { SchemaName } from './contract/schemas';
import { abbreviate } from '../domain/abbreviate';
import { unknownKind } from '../domain/unknown-kind';
import { invalidInput } from './errors';
import { parseDecimal, parseInteger, rangeText, type QueryParameters } from '../domain/query-parameters';

/**
 * Declared query parameters of a route (in its endpoint's declaration). The endpoint builder checks every
 * declared parameter before the handler runs, so a wrong type is a 400 naming the parameter,
 * never a silent default; parameters nobody declared are ignored, as in commercetools.
 */
export type ScalarType = 'string' | 'number' | 'integer' | 'boolean' | 'date-time' | 'json';

export interface ParameterSpec {
  /** One type, or several a value may take (the first that fits wins). */
  type: ScalarType | readonly ScalarType[];
  repeatable?: boolean;
  /** Missing is a 400 naming the parameter. */
  required?: boolean;
  min?: number;
  max?: number;
  /** For strings: the most characters a value may have. */
  maxLength?: number;
  /** For `json` values: the shape the parsed value must have (a schema of the document, as JSON Schema). */
  shape?: NamedShape;
  description?: string;
}

export type ParameterSpecs = Readonly<Record<string, ParameterSpec>>;

/**
 * The schema a `json` parameter's document must fit: its name in the schema catalogue (for the
 * OpenAPI document) and its zod schema from the domain (not the catalogue, which functions do not carry).
 */
export interface NamedShape {
  name: SchemaName;
  /** Whether a parsed value has the schema's shape. */
  accepts(value: unknown): boolean;
}

/**
 * Shaped like the schema: types, required and unknown fields, lengths and bounds. The refinements
 * of a stored resource (zod's `custom` issues: unique values, DynamoDB's number range) are not
 * asked of a parameter that narrows nothing.
 */
export function namedShape(name: SchemaName, schema: z.ZodMiniType): NamedShape {
  return {
    name,
    accepts: (value) => {
      const result = schema.safeParse(value);
      return result.success || result.error.issues.every((issue) => issue.code === 'custom');
    },
  };
}

export function checkParameters(specs: ParameterSpecs | undefined, query: QueryParameters): void {
  for (const [name, spec] of Object.entries(specs ?? {})) {
    const values = query.all(name);
    if (values.length === 0 && spec.required) throw invalidInput(`The query parameter '${name}' is required.`);
    if (values.length > 1 && !spec.repeatable) throw invalidInput(`The query parameter '${name}' may be given only once.`);
    const types = [spec.type].flat();
    const misfit = values.find((value) => !types.some((type) => fits(type, value, spec)));
    if (misfit === undefined) continue;
    const bounds = spec.maxLength === undefined ? rangeText({ min: spec.min, max: spec.max, integer: types.every((type) => type === 'integer') }) : ` of at most ${spec.maxLength} characters`;
    throw invalidInput(`The query parameter '${name}' must be ${types.map(describe).join(' or ')}${bounds}, got '${abbreviate(misfit, 60)}'.`);
  }
}

function fits(type: ScalarType, value: string, spec: ParameterSpec): boolean {
  switch (type) {
    case 'string':
      return spec.maxLength === undefined || value.length <= spec.maxLength;
    case 'number':
    case 'integer': {
      // Integers: decimal digits only, exactly representable (parseInteger); no exponent form, nothing beyond 2^53.
      const number = type === 'integer' ? parseInteger(value) : parseDecimal(value);
      if (!Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) return false;
      return (spec.min === undefined || number >= spec.min) && (spec.max === undefined || number <= spec.max);
    }
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return false;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
      return spec.shape ? spec.shape.accepts(parsed) : true;
    }
    default:
      return unknownKind(type, 'parameter type');
  }
}

const describe = (type: ScalarType) =>
  ({
    string: 'a string',
    number: 'a number',
    integer: 'an integer',
    boolean: 'true or false',
    'date-time': 'an ISO 8601 date-time',
    json: 'a JSON object of the declared shape',
  })[type];
