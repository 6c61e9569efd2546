import type { Resource } from '../domain/resource';
import type { SearchHits, SearchRequest } from '../domain/search';

/**
 * One change of a resource as the search index takes it: what the table's stream says was written
 * (a create or update: the resource as it now is; a delete: the id and the version it had).
 */
export type IndexChange =
  | { kind: 'put'; projectKey: string; resource: Resource }
  | { kind: 'delete'; projectKey: string; id: string; version: number };

/**
 * The search engine's side that the table's changes feed (functions/index-changes, and the reindex).
 * Changes may come twice, late, or beside a reindex reading an older copy: the index keeps, per
 * resource, the highest version it was told of, and a delete stays as a marker at its version, so
 * that no older write overwrites a newer one and nothing deleted comes back.
 */
export interface SearchIndexWriter {
  /** Applies the changes; each one at or below the version the index holds for its resource changes nothing. */
  apply(changes: readonly IndexChange[]): Promise<void>;
  /** Refreshes what the engine knows of the index's sizes, as after a bulk load (until then its plans may read a project whole). */
  analyze(): Promise<void>;
}

/**
 * The search engine's side that answers searches. It knows each resource as the last change it
 * was told of; the service reads the bodies from the table. Engine unreachable or too slow:
 * NoAnswerError.
 */
export interface SearchIndex {
  search(projectKey: string, request: SearchRequest): Promise<SearchHits>;
}
