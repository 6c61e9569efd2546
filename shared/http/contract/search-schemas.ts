import * as z from 'zod/mini';
import { pageOf } from '../../domain/query';
import { ObjectTestType } from '../../domain/resource';
import { FacetRange, FacetResult, FacetTerm, FilterFacetResult, RangeFacetResult, TermFacetResult } from '../../domain/search';
import type { DocumentSchema } from './document-schema';

/** The search answer's schemas: the search engine's own facet schemas, and the page that holds them. */
export const searchSchemas = {
  FacetTerm: { schema: FacetTerm },
  TermFacetResult: { schema: TermFacetResult },
  FacetRange: { schema: FacetRange },
  RangeFacetResult: { schema: RangeFacetResult },
  FilterFacetResult: { schema: FilterFacetResult },
  FacetResult: { schema: FacetResult },
  SearchResult: {
    schema: z.object({ ...pageOf(ObjectTestType).shape, facets: z.record(z.string(), FacetResult) }),
    description: 'A page of resources and the facets asked for, keyed by their `as` name or their expression.',
  },
} satisfies Record<string, DocumentSchema>;
