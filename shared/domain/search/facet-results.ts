import * as z from 'zod/mini';
import type { FieldKind } from './field-catalog';
import type { FacetCounts, FacetRequest, SearchValue } from './search-model';

/** The shapes of searchApiPattern's facet answers, as the API returns them (and the OpenAPI document shows them). */

const FacetValue = z.union([z.number(), z.string()]);

export const FacetTerm = z.object({ term: FacetValue, count: z.number().check(z.int()) });
export type FacetTerm = z.infer<typeof FacetTerm>;

export const TermFacetResult = z
  .object({
    type: z.literal('terms'),
    dataType: z.enum(['number', 'text', 'datetime']),
    missing: z.number().check(z.int(), z.meta({ description: 'Documents without a value for the field' })),
    total: z.number().check(z.int(), z.meta({ description: 'The sum of every term\'s count, listed or not (a document counts once per distinct value it holds)' })),
    other: z.number().check(z.int(), z.meta({ description: 'The sum of the counts of the terms left out (past `facetLimit`)' })),
    terms: z.array(FacetTerm).check(z.meta({ description: 'The `facetLimit` (default 10, at most 200) most frequent: by count, highest first; equal counts by term, ascending. Date-times as ISO 8601 UTC' })),
  })
  .check(z.meta({ description: '`facet=<field>`: documents per distinct value, the most frequent' }));
export type TermFacetResult = z.infer<typeof TermFacetResult>;

export const FacetRange = z.object({
  type: z.literal('double'),
  from: z.number().check(z.meta({ description: "0 and '' (fromStr) for an open end, as commercetools writes them; a date-time as epoch milliseconds (fromStr ISO 8601 UTC)" })),
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
  .object({ type: z.literal('range'), dataType: z.enum(['number', 'datetime']), ranges: z.array(FacetRange) })
  .check(z.meta({ description: '`facet=<field>:range(0 to 100), (100 to *)`: statistics per range (from included, to excluded)' }));
export type RangeFacetResult = z.infer<typeof RangeFacetResult>;

export const FilterFacetResult = z
  .object({ type: z.literal('filter'), count: z.number().check(z.int(), z.meta({ description: 'Documents matching the condition' })) })
  .check(z.meta({ description: '`facet=<field>:<filter condition>`: documents matching the condition' }));
export type FilterFacetResult = z.infer<typeof FilterFacetResult>;

/** One facet of a search answer, keyed in `facets` by its `as` name or its expression. */
export const FacetResult = z.discriminatedUnion('type', [TermFacetResult, RangeFacetResult, FilterFacetResult]);
export type FacetResult = z.infer<typeof FacetResult>;

/** searchApiPattern's answer to a facet from what the engine counted for it. */
export function facetResultOf(facet: FacetRequest, counts: FacetCounts): FacetResult {
  if (counts.kind === 'count') return { type: 'filter', count: counts.count };
  const kind = facet.kind === 'distinct' || facet.kind === 'ranges' ? facet.field.kind : 'number';
  const written = (value: SearchValue) => (kind === 'datetime' ? new Date(value).toISOString() : value);
  if (counts.kind === 'distinct') {
    const { missing, total, other } = counts;
    return { type: 'terms', dataType: dataTypeOf(kind), missing, total, other, terms: counts.buckets.map(({ value, count }) => ({ term: written(value), count })) };
  }
  if (counts.kind !== 'ranges' || facet.kind !== 'ranges') throw new Error(`A ${facet.kind} facet was answered as ${counts.kind}`);
  const ranges = counts.ranges.map((range, index): FacetRange => {
    const { from, to } = facet.ranges[index]!;
    const isEmpty = range.values === 0;
    return {
      type: 'double',
      from: (from as number | undefined) ?? 0,
      fromStr: from === undefined ? '' : String(written(from)),
      to: (to as number | undefined) ?? 0,
      toStr: to === undefined ? '' : String(written(to)),
      count: range.resources,
      totalCount: range.values,
      total: isEmpty ? 0 : range.sum,
      min: range.min ?? 0,
      max: range.max ?? 0,
      mean: isEmpty ? 0 : range.sum / range.values,
    };
  });
  return { type: 'range', dataType: kind === 'datetime' ? 'datetime' : 'number', ranges };
}

const dataTypeOf = (kind: FieldKind) => (kind === 'number' || kind === 'datetime' ? kind : 'text');
