import type { ErrorResponseName } from './error-names';
import { json } from './content';

/** Answers and error lists the resource endpoints share. */
export const RESOURCE = { description: 'The resource.', content: json('ObjectTestType') };
export const CREATED = { description: 'Created: the new resource, version 1.', content: json('ObjectTestType') };
export const PAGE = { description: 'A page of the matching resources.', content: json('PagedQueryResult') };

export const QUERY_ERRORS = ['BadRequest', 'ServiceUnavailable'] as const satisfies readonly ErrorResponseName[];
export const WRITE_ERRORS = ['BadRequest', 'Conflict', 'PayloadTooLarge', 'UnsupportedMediaType', 'ServiceUnavailable'] as const satisfies readonly ErrorResponseName[];

export const VAR_PARAMETERS = 'Predicates may use input variables: `var.<name>=<value>` (repeatable) is referred to as `:<name>` in `where`.';
