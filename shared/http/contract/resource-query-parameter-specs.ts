import { InterfaceObjectTestType } from '../../domain/resource';
import type { ParameterSpecs } from '../parameters';
import { PAGED_QUERY } from './query-parameter-specs';

/** Row 1's declared parameters, checked by type (they do not narrow the result). */
export const RESOURCE_QUERY = {
  ...PAGED_QUERY,
  stringParameter: { type: 'string' },
  floatParameter: { type: 'number' },
  integerParameter: { type: 'integer' },
  withMarkdownDescription: { type: 'number' },
  objectParameter: { type: 'json' },
  arrayOfString: { type: 'string', repeatable: true },
  arrayOfStringWithDescription: { type: 'string', repeatable: true },
  unionParameter: { type: ['number', 'date-time', 'json'], schema: InterfaceObjectTestType },
} as const satisfies ParameterSpecs;
