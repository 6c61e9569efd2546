import * as z from 'zod';
import { QueryParameters } from '../../../shared/domain/query-parameters';
import { ObjectTestType } from '../../../shared/domain/resource';
import { compileSearchApiPattern, facetResultOf, type FacetResult, type SearchRequest } from '../../../shared/domain/search';
import { referenceSearch, type StemLookup } from '../../support/search-reference';

/** The JSON Schema the service hands the search engine. */
export const resourceSchema = z.toJSONSchema(ObjectTestType, { io: 'output', unrepresentable: 'any' });

type ResourceFields = {
  key?: string;
  version?: number;
  createdAt?: string;
  someProperty?: string;
  objectTypeProperty?: Record<string, unknown>;
};

let nextId = 1;

/** A stored resource with the given fields and made-up id and timestamps. */
export function resource(fields: ResourceFields): Record<string, unknown> & { id: string } {
  const id = `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`;
  const createdAt = fields.createdAt ?? '2024-01-01T00:00:00.000Z';
  return { id, version: 1, lastModifiedAt: createdAt, objectTypeProperty: {}, ...fields, createdAt };
}

export type TestParams = Record<string, string | string[]>;

/** searchApiPattern's parameters compiled to the search model. */
export function compile(params: TestParams): SearchRequest {
  const entries = new Map(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]));
  return compileSearchApiPattern(new QueryParameters(entries), resourceSchema);
}

/** The reference's answer to the parameters over the documents: the result keys (ids where keyless) in order, and the facets as searchApiPattern writes them. */
export function runSearch(params: TestParams, docs: readonly (Record<string, unknown> & { id: string })[], stems?: StemLookup): { keys: unknown[]; facets: Record<string, FacetResult> } {
  const request = compile(params);
  const hits = referenceSearch(docs, { ...request, page: { limit: docs.length, offset: 0, withTotal: true } }, { ...(stems ? { stems } : {}) });
  const byId = new Map(docs.map((doc) => [doc.id, doc]));
  return {
    keys: hits.ids.map((id) => byId.get(id)!['key'] ?? id),
    facets: Object.fromEntries(request.facets.map((facet, index) => [facet.name, facetResultOf(facet, hits.facets[index]!)])),
  };
}

/** The SearchError a compile throws, for assertions on `parameter` and `message`. */
export function compileError(params: TestParams): { name: string; parameter: string; message: string } {
  try {
    compile(params);
  } catch (error) {
    if (error instanceof Error && 'parameter' in error) {
      return { name: error.name, parameter: String(error.parameter), message: error.message };
    }
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(params)} to be refused`);
}
