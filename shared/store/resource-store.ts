import type { StoreRead } from '../domain/query/store-access';
import type { ArrayTestType, Resource } from '../domain/resource';
import type { ResourceChanges } from '../domain/resource-changes';

/**
 * Where resources live. The DynamoDB adapter is the one implementation; it runs against DynamoDB
 * in AWS and DynamoDB Local on a laptop and in the tests. Refusals are domain errors:
 * ResourceNotFoundError, VersionConflictError (409), DuplicateKeyError.
 */
export interface ResourceStore {
  get(projectKey: string, id: string): Promise<Resource | undefined>;
  getByKey(projectKey: string, key: string): Promise<Resource | undefined>;
  /** Creates a resource at version 1; its key, if any, must be free. */
  create(projectKey: string, draft: NewResource, options?: CreateOptions): Promise<Resource>;
  /** Replaces the `objectTypeProperty` of the resource holding `draft.key` (version + 1), or — with `createIfMissing` — creates it when no resource holds the key. */
  writeByKey(projectKey: string, draft: KeyedDraft, options: WriteByKeyOptions): Promise<{ resource: Resource; created: boolean }>;
  /** Applies net changes at the expected version; a request that changes nothing keeps the version. */
  update(projectKey: string, id: string, expectedVersion: number, changes: ResourceChanges): Promise<Resource>;
  delete(projectKey: string, id: string, expectedVersion?: number): Promise<Resource>;
}

/**
 * What queries and search read of the resources: the one read a plan names (store-access.ts), and
 * the project's resource count. Read-only, and apart from ResourceStore, so that a function that
 * only queries carries none of the resources' writes (DynamoDbResourceQueryStore).
 */
export interface ResourceQueryStore {
  /** Whether a range `on: 'lastModifiedAt'` can be read: the deployment has that index (its default). */
  readonly lastModifiedIndex: boolean;
  /**
   * The resources of a read, strongly consistent: named ones that exist (any order), or a range in
   * its order, page by page, read only as far as the caller iterates. `firstReadSize` is how many
   * items the first read fetches (then twice as many per read): a query that needs one page reads
   * about one page.
   */
  read(projectKey: string, read: StoreRead, firstReadSize?: number): AsyncIterable<Resource>;
  /** How many resources the project has (its counters, in one small read). */
  countResources(projectKey: string): Promise<number>;
}

export interface NewResource {
  key?: string;
  objectTypeProperty: ArrayTestType;
}

export interface CreateOptions {
  /**
   * The request's identity when it carries an Idempotency-Key (a hash of its client, method, path,
   * key and body): a create already made under it answers the resource it made (as it is now) and creates none.
   */
  requestHash?: string;
}

export interface WriteByKeyOptions extends CreateOptions {
  /** Create the resource when no resource holds the key; otherwise that is ResourceNotFoundError. */
  createIfMissing: boolean;
  /**
   * Whether the caller expects the key to be held (an upsert, an overwrite) or free (a create):
   * only the cost differs. Held: the key is read first, then its resource replaced. Free (with
   * `createIfMissing`): the create claims the key in its transaction, and only a cancelled claim
   * leads to the replace. Without `createIfMissing` the key is always read first.
   */
  expectHeld: boolean;
}

export interface KeyedDraft {
  key: string;
  objectTypeProperty: ArrayTestType;
  /** When given, the existing resource must be at this version. */
  expectedVersion?: number;
}
