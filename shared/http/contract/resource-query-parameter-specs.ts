import type { ParameterSpecs } from '../parameters';
import { PAGED_QUERY } from './query-parameter-specs';

/**
 * The declared parameters GET and HEAD /{projectKey}/resource share (paging and the interface's
 * typed parameters), checked by type: they do not narrow the result. GET adds `unionParameter`,
 * whose JSON form is checked against the interface's ObjectTestType
 * (functions/query-resources/endpoint.ts, contract/parameter-shapes.ts); HEAD does not declare it.
 */
export const RESOURCE_QUERY = {
  ...PAGED_QUERY,
  stringParameter: { type: 'string' },
  floatParameter: { type: 'number' },
  integerParameter: { type: 'integer' },
  withMarkdownDescription: { type: 'number' },
  objectParameter: { type: 'json' },
  arrayOfString: { type: 'string', repeatable: true },
  arrayOfStringWithDescription: { type: 'string', repeatable: true },
} as const satisfies ParameterSpecs;
