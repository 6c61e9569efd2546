import type { ArrayTestType, Resource } from '../domain/resource';
import type { ResourceChanges } from '../domain/update-actions';

/**
 * Where resources live. The DynamoDB adapter is the one implementation; it runs against DynamoDB
 * in AWS and DynamoDB Local on a laptop and in the tests. Refusals are domain errors:
 * ResourceNotFoundError, VersionConflictError (409), DuplicateKeyError.
 */
export interface ResourceStore {
  get(projectKey: string, id: string): Promise<Resource | undefined>;
  getByKey(projectKey: string, key: string): Promise<Resource | undefined>;
  /** Creates a resource at version 1; its key, if any, must be free. */
  create(projectKey: string, draft: NewResource): Promise<Resource>;
  /**
   * Replaces the `objectTypeProperty` of the resource holding `draft.key` (version + 1), or —
   * with `createIfMissing` — creates it when no resource holds the key.
   */
  writeByKey(projectKey: string, draft: KeyedDraft, options: { createIfMissing: boolean }): Promise<{ resource: Resource; created: boolean }>;
  /** Applies net changes at the expected version; a request that changes nothing keeps the version. */
  update(projectKey: string, id: string, expectedVersion: number, changes: ResourceChanges): Promise<Resource>;
  delete(projectKey: string, id: string, expectedVersion?: number): Promise<Resource>;
  /**
   * Every resource of the project in id order, page by page, from `fromId` (inclusive) when
   * given. Queries evaluate their predicates over this stream and stop reading when they can.
   */
  scan(projectKey: string, options?: { fromId?: string }): AsyncIterable<Resource>;
}

export interface NewResource {
  key?: string;
  objectTypeProperty: ArrayTestType;
}

export interface KeyedDraft {
  key: string;
  objectTypeProperty: ArrayTestType;
  /** When given, the existing resource must be at this version. */
  expectedVersion?: number;
}
