import { MAX_OFFSET, MAX_PAGE_SIZE, MAX_PREDICATE_LENGTH, MAX_SORT_LENGTH } from '../../domain/limits';
import type { ParameterSpecs } from '../parameters';

/**
 * Query parameters several endpoints share. GET /{projectKey}/resource's own set, which validates JSON values with a
 * resource schema, is apart (resource-query-parameter-specs.ts): a function that imports these
 * carries no schema.
 */

/** The paged query of the commercetools family (GET and HEAD /{projectKey}/resource, GET …/sorted-query-parameters); `var.<name>` joins them. */
export const PAGED_QUERY = {
  where: { type: 'string', repeatable: true, maxLength: MAX_PREDICATE_LENGTH, description: 'Query predicate; several are AND-ed' },
  sort: { type: 'string', repeatable: true, maxLength: MAX_SORT_LENGTH, description: '`<field> asc|desc`, applied in order' },
  limit: { type: 'integer', min: 0, max: MAX_PAGE_SIZE, description: 'Page size (default 20)' },
  offset: { type: 'integer', min: 0, max: MAX_OFFSET, description: 'Results to skip (default 0)' },
  withTotal: { type: 'boolean', description: 'Count all matches (default true)' },
  expand: { type: 'string', repeatable: true, description: 'Accepted; the resource has no references' },
} as const satisfies ParameterSpecs;

/** The parameters of POST /{projectKey}/resource/images, shared by both ways to upload: which variant gets the image, its file name, staged or published too. */
export const IMAGE_TARGET_QUERY = {
  filename: { type: 'string' },
  variant: { type: 'integer', min: 1 },
  sku: { type: 'string' },
  staged: { type: 'boolean' },
} as const satisfies ParameterSpecs;
