import { InterfaceObjectTestType } from '../../domain/resource';
import type { ParameterSpecs } from '../parameters';

/** The paged query of the commercetools family (rows 1, 5 and 12); `var.<name>` joins them. */
export const PAGED_QUERY = {
  where: { type: 'string', repeatable: true, description: 'Query predicate; several are AND-ed' },
  sort: { type: 'string', repeatable: true, description: '`<field> asc|desc`, applied in order' },
  limit: { type: 'integer', min: 0, max: 500, description: 'Page size (default 20)' },
  offset: { type: 'integer', min: 0, max: 10_000, description: 'Results to skip (default 0)' },
  withTotal: { type: 'boolean', description: 'Count all matches (default true)' },
  expand: { type: 'string', repeatable: true, description: 'Accepted; the resource has no references' },
} as const satisfies ParameterSpecs;

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

/** Row 13's parameters, shared by both ways to upload: which variant gets the image, its file name, staged or published too. */
export const IMAGE_TARGET_QUERY = {
  filename: { type: 'string' },
  variant: { type: 'integer', min: 1 },
  sku: { type: 'string' },
  staged: { type: 'boolean' },
} as const satisfies ParameterSpecs;
