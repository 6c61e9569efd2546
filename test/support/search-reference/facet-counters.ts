import { searchValuesAt } from '../../../shared/domain/search/document-values';
import type { FacetCounts, FacetRequest, SearchValue } from '../../../shared/domain/search/search-model';
import { compareValues } from './predicates';

/** What a facet counts over the documents of its base (its scope and its filter), as search-model.ts defines it. */
export function facetCounts(facet: FacetRequest, base: readonly unknown[]): FacetCounts {
  switch (facet.kind) {
    case 'count':
      return { kind: 'count', count: base.length };
    case 'distinct': {
      const resources = new Map<SearchValue, number>();
      let missing = 0;
      for (const doc of base) {
        const held = new Set(searchValuesAt(doc, facet.field));
        if (held.size === 0) missing++;
        for (const value of held) resources.set(value, (resources.get(value) ?? 0) + 1);
      }
      const { by, direction } = facet.order;
      const included = facet.includes ? new Set(facet.includes) : undefined;
      const buckets = [...resources]
        .map(([value, count]) => ({ value, count }))
        .filter((bucket) => included === undefined || included.has(bucket.value))
        .sort((a, b) => (by === 'count' ? direction * (a.count - b.count) || compareValues(a.value, b.value) : direction * compareValues(a.value, b.value)))
        .slice(0, facet.limit);
      const total = [...resources.values()].reduce((sum, count) => sum + count, 0);
      return { kind: 'distinct', buckets, missing, total, other: total - buckets.reduce((sum, bucket) => sum + bucket.count, 0) };
    }
    case 'ranges':
      return {
        kind: 'ranges',
        ranges: facet.ranges.map(({ from, to }) => {
          const inRange = (value: number) => (from === undefined || value >= (from as number)) && (to === undefined || value < (to as number));
          const held = base.map((doc) => (searchValuesAt(doc, facet.field) as number[]).filter(inRange));
          const values = held.flat();
          return {
            resources: held.filter((inside) => inside.length > 0).length,
            values: values.length,
            sum: values.reduce((sum, value) => sum + value, 0),
            min: values.length === 0 ? undefined : Math.min(...values),
            max: values.length === 0 ? undefined : Math.max(...values),
          };
        }),
      };
    case 'stats': {
      const values = base.flatMap((doc) => searchValuesAt(doc, facet.field)).sort(compareValues);
      return {
        kind: 'stats',
        count: values.length,
        ...(values.length === 0 ? {} : { min: values[0]!, max: values.at(-1)! }),
        ...(facet.field.kind === 'number' ? { sum: (values as number[]).reduce((sum, value) => sum + value, 0) } : {}),
      };
    }
  }
}
