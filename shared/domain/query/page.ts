import * as z from 'zod/mini';
import { MAX_PAGE_SIZE } from '../limits';

/**
 * The paged answer of queries and search, as a schema with its type inferred. Apart from the
 * paging itself (page-window.ts), which imports only the type: the functions that page carry no
 * schema for it (the OpenAPI document shows it).
 */

/** The paging fields of a query answer (GET `/{projectKey}/resource`, `…/searchApiPattern`, `…/sorted-query-parameters`): `{limit, offset, count, total, results}`. */
const PageFields = z.object({
  limit: z.number().check(z.int(), z.meta({ description: 'Page size asked for (default 20)' })),
  offset: z.number().check(z.int(), z.meta({ description: 'Matches skipped (default 0)' })),
  count: z.number().check(z.int(), z.meta({ description: 'Results on this page' })),
  total: z.optional(z.number().check(z.int())).check(z.meta({ description: 'All matches; absent with `withTotal=false`' })),
});

/** The paged answer's schema for results of the given schema. */
export const pageOf = <T extends z.core.$ZodType>(result: T) => z.extend(PageFields, { results: z.array(result).check(z.maxLength(MAX_PAGE_SIZE)) });

export type Page<T> = z.infer<typeof PageFields> & { results: T[] };
