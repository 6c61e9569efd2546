import * as z from 'zod/mini';

/** The shapes of facet answers, as the API returns them (and the OpenAPI document shows them). */

const FacetValue = z.union([z.number(), z.string()]);

export const FacetTerm = z.object({
  term: FacetValue,
  count: z.number().check(z.int()),
});
export type FacetTerm = z.infer<typeof FacetTerm>;

export const TermFacetResult = z
  .object({
    type: z.literal('terms'),
    dataType: z.enum(['number', 'text']),
    missing: z.number().check(z.int(), z.meta({ description: 'Documents without a value for the field' })),
    total: z.number().check(z.int(), z.meta({ description: 'The sum of the term counts (a document counts once per distinct value it holds)' })),
    other: z.number().check(z.int(), z.meta({ description: 'Counts of terms left out; every term is listed, so always 0' })),
    terms: z.array(FacetTerm).check(z.meta({ description: 'By count, highest first; equal counts by term, ascending' })),
  })
  .check(z.meta({ description: '`facet=<field>`: documents per distinct value' }));
export type TermFacetResult = z.infer<typeof TermFacetResult>;

export const FacetRange = z.object({
  type: z.literal('double'),
  from: z.number().check(z.meta({ description: "0 and '' (fromStr) for an open end, as commercetools writes them" })),
  fromStr: z.string(),
  to: z.number().check(z.meta({ description: "0 and '' (toStr) for an open end" })),
  toStr: z.string(),
  count: z.number().check(z.int(), z.meta({ description: 'Documents with at least one value in the range' })),
  totalCount: z.number().check(z.int(), z.meta({ description: 'Values in the range, over all documents' })),
  total: z.number().check(z.meta({ description: 'Sum of those values; 0 when there are none (so are min, max and mean)' })),
  min: z.number(),
  max: z.number(),
  mean: z.number(),
});
export type FacetRange = z.infer<typeof FacetRange>;

export const RangeFacetResult = z
  .object({
    type: z.literal('range'),
    dataType: z.literal('number'),
    ranges: z.array(FacetRange),
  })
  .check(z.meta({ description: '`facet=<field>:range(0 to 100), (100 to *)`: statistics per range (from included, to excluded)' }));
export type RangeFacetResult = z.infer<typeof RangeFacetResult>;

export const FilterFacetResult = z
  .object({
    type: z.literal('filter'),
    count: z.number().check(z.int(), z.meta({ description: 'Documents matching the condition' })),
  })
  .check(z.meta({ description: '`facet=<field>:<filter condition>`: documents matching the condition' }));
export type FilterFacetResult = z.infer<typeof FilterFacetResult>;

/** One facet of a search answer, keyed in `facets` by its `as` name or its expression. */
export const FacetResult = z.discriminatedUnion('type', [TermFacetResult, RangeFacetResult, FilterFacetResult]);
export type FacetResult = z.infer<typeof FacetResult>;
