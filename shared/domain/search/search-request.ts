import type { Condition } from './expression-ast';
import type { Field } from './field-catalog';
import type { TextQuery } from './text-match';

/**
 * A search as compileSearch checked it: every field resolved against the resource's schema and
 * every value fits its field, so whatever answers it (the engine's adapter) meets no 400 case.
 */
export interface SearchRequest {
  text: TextQuery;
  /** `filter.query`: restricts the results and the documents facets count. */
  queryFilters: readonly FieldFilter[];
  /** `filter`: restricts the results only. */
  resultFilters: readonly FieldFilter[];
  /** `filter.facets`: restricts the documents facets count only. */
  facetFilters: readonly FieldFilter[];
  facets: readonly FacetRequest[];
}

/**
 * A resource passes when it holds a value at the field (`exists`), none (`missing`), or any value
 * equal to a term or within a range, both ends included (`values`).
 */
export interface FieldFilter {
  field: Field;
  condition: Condition;
}

/** A range facet's range: `from` included, `to` excluded; undefined is an open end. */
export interface NumberRange {
  from: number | undefined;
  to: number | undefined;
}

/** One facet, named by its `as` alias or its expression as given. */
export type FacetRequest =
  | { name: string; kind: 'terms'; field: Field }
  | { name: string; kind: 'ranges'; field: Field; ranges: readonly NumberRange[] }
  | { name: string; kind: 'filter'; filter: FieldFilter };
