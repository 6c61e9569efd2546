import * as z from 'zod';
import { ObjectTestType } from '../../../shared/domain/resource';
import type { FacetResult } from '../../../shared/domain/search';
import { compileReferenceSearch, type CompiledSearch } from '../../support/search-reference';

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
export function resource(fields: ResourceFields): Record<string, unknown> {
  const id = `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`;
  const createdAt = fields.createdAt ?? '2024-01-01T00:00:00.000Z';
  return { id, version: 1, lastModifiedAt: createdAt, objectTypeProperty: {}, ...fields, createdAt };
}

export type TestParams = Record<string, string | string[]>;

export function toParamMap(params: TestParams): Map<string, string[]> {
  return new Map(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]));
}

export function compile(params: TestParams): CompiledSearch {
  return compileReferenceSearch(toParamMap(params), resourceSchema);
}

/** Streams the documents through a search as the caller does; answers the result keys and facets. */
export function runSearch(
  params: TestParams,
  docs: readonly Record<string, unknown>[],
): { keys: unknown[]; facets: Record<string, FacetResult> | undefined } {
  const search = compile(params);
  const keys: unknown[] = [];
  for (const doc of docs) {
    if (search.matchesFacetBase(doc)) search.facets?.add(doc);
    if (search.matchesResults(doc)) keys.push(doc['key'] ?? doc['id']);
  }
  return { keys, facets: search.facets?.result() };
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
