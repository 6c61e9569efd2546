import * as z from 'zod/mini';
import { ObjectTestType } from '../resource';

/** The answer of POST /{projectKey}/resource/search, in Product Search's shapes (ProductPagedSearchResponse). */

const count = z.number().check(z.int());
const StatsValue = z.nullable(z.union([z.number(), z.string()]));

export const ResourceSearchFacetResultBucket = z
  .object({ name: z.string(), buckets: z.array(z.object({ key: z.string(), count })) })
  .check(z.meta({ description: 'A distinct facet (most frequent first unless sorted otherwise; `missing` last) or a ranges facet (in the order asked). Keys are strings: numbers as JSON writes them, date-times in ISO 8601 UTC' }));
export const ResourceSearchFacetResultCount = z.object({ name: z.string(), value: count }).check(z.meta({ description: 'A count facet: resources in its scope and filter' }));
export const ResourceSearchFacetResultStats = z
  .object({ name: z.string(), min: StatsValue, max: StatsValue, mean: z.optional(z.number()), sum: z.optional(z.number()), count })
  .check(z.meta({ description: "A stats facet over the field's values (each as often as a resource holds it): `min` and `max` of the field's kind (null without values), `mean` and `sum` for number fields" }));
export const ResourceSearchFacetResult = z.union([ResourceSearchFacetResultBucket, ResourceSearchFacetResultCount, ResourceSearchFacetResultStats]);
export type ResourceSearchFacetResult = z.infer<typeof ResourceSearchFacetResult>;

export const ResourceSearchResult = z.object({
  id: z.string(),
  /** The resource as the table holds it now: only when the request gives `resourceParameters`. */
  resource: z.optional(ObjectTestType),
});

export const ResourcePagedSearchResponse = z.object({
  total: count.check(z.meta({ description: 'Resources the query and postFilter find' })),
  offset: count,
  limit: count,
  facets: z.array(ResourceSearchFacetResult).check(z.meta({ description: 'One per facet asked for, in the order asked' })),
  results: z.array(ResourceSearchResult).check(z.meta({ description: 'The page, ids first; a resource deleted since it was indexed is left out when resources are asked for' })),
});
export type ResourcePagedSearchResponse = z.infer<typeof ResourcePagedSearchResponse>;
