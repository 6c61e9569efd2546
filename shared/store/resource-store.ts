import type { IndexEntry, RecordedOrder } from '../domain/query/last-modified-order';
import type { PassedEntry, RecordedCheckpoints } from '../domain/query/position-checkpoints';
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
  create(projectKey: string, draft: NewResource): Promise<Resource>;
  /**
   * Replaces the `objectTypeProperty` of the resource holding `draft.key` (version + 1), or —
   * with `createIfMissing` — creates it when no resource holds the key.
   */
  writeByKey(projectKey: string, draft: KeyedDraft, options: WriteByKeyOptions): Promise<{ resource: Resource; created: boolean }>;
  /** Applies net changes at the expected version; a request that changes nothing keeps the version. */
  update(projectKey: string, id: string, expectedVersion: number, changes: ResourceChanges): Promise<Resource>;
  delete(projectKey: string, id: string, expectedVersion?: number): Promise<Resource>;
}

/**
 * What queries and search read of the resources: ranges, passes over offsets, the counters and the
 * position checkpoints (whose writes are the queries' own). Apart from ResourceStore, so that a
 * function that only queries carries none of the resources' writes (DynamoDbResourceQueryStore).
 */
export interface ResourceQueryStore {
  /** The resources with these ids that exist (any order), read strongly consistently. */
  getMany(projectKey: string, ids: readonly string[]): Promise<Resource[]>;
  /** The resources holding these keys (any order), through the key sentinels. */
  getManyByKey(projectKey: string, keys: readonly string[]): Promise<Resource[]>;
  /**
   * The project's resources in id order (ids sort by creation time: shared/domain/resource-id.ts),
   * page by page, from `fromId` up to `toId` (both inclusive, either may be a prefix), or in
   * reverse. Queries evaluate their predicates over this stream and stop reading when they can.
   */
  scan(projectKey: string, options?: ScanRange): AsyncIterable<Resource>;
  /** The project's counters, in one small read. */
  stats(projectKey: string): Promise<ProjectStats>;
  /** The project's position checkpoints as last recorded (docs/design.md, "Deep offsets"), read eventually consistently. */
  checkpoints(projectKey: string): Promise<RecordedCheckpoints | undefined>;
  /** Records checkpoints, unless ones of a later delete count are there already (they would be newer). */
  recordCheckpoints(projectKey: string, recorded: RecordedCheckpoints): Promise<void>;
  /**
   * The ids of the resources deleted from `since` on (by their tombstones' time, strongly
   * consistent), or undefined when there are more than MAX_REPAIRED_DELETES.
   */
  deletesSince(projectKey: string, since: string): Promise<string[] | undefined>;
  /**
   * The project's resources in `lastModifiedAt` order (equal instants in any order), from the
   * deployment's optional index on it; undefined when the deployment has none. The index is
   * eventually consistent, the resources are not: each is read strongly consistently, and one
   * whose index entry is out of date (updated or deleted since) is left out (docs/design.md).
   */
  scanByLastModified?(projectKey: string, range: LastModifiedRange): AsyncIterable<Resource> | undefined;
  /**
   * The ids of the index entries in the range, in `lastModifiedAt` order, from the keys alone (no
   * resource read): an id may come twice, or be out of date (updated or deleted since), so its
   * resource must be read and tested again. Undefined when the deployment has no index.
   */
  idsByLastModified?(projectKey: string, range: LastModifiedRange): AsyncIterable<string> | undefined;
  /**
   * Passes over the first `skip.count` resources of `scan(range)` that `skip.matches` accepts,
   * reading their keys only (a deep offset without materialising what it skips), and says where
   * `scan` resumes (`after`).
   */
  skip(projectKey: string, range: ScanRange, skip: Skip<PassedEntry>): Promise<Skipped>;
  /**
   * The same over `scanByLastModified(range)`'s index entries, without re-reading their resources:
   * an index entry out of date (updated or deleted within the index's lag) counts as one passed
   * (docs/design.md). Undefined when the deployment has no index.
   */
  skipByLastModified?(projectKey: string, range: LastModifiedRange, skip: Skip<IndexEntry>): Promise<Skipped> | undefined;
  /**
   * The index entries in the range, in `lastModifiedAt` order, keys only (eventually consistent, as
   * the index); undefined when there are more than `max`, or the deployment has no index.
   */
  lastModifiedEntries?(projectKey: string, range: LastModifiedRange, max: number): Promise<IndexEntry[] | undefined>;
  /** The project's recorded `lastModifiedAt` order in one direction (last-modified-order.ts), read eventually consistently; none without the index. */
  lastModifiedOrder?(projectKey: string, descending: boolean): Promise<RecordedOrder | undefined>;
  /** Records an order, unless a later recording of the direction is there already. */
  recordLastModifiedOrder?(projectKey: string, recorded: RecordedOrder): Promise<void>;
}

declare const streamPosition: unique symbol;
/** Where a stream stands (the store's own key, opaque to its callers): a scan resumes right after it. */
export type StreamPosition = { readonly [streamPosition]: true };

/** A pass over an offset; `Entry` is what it tells `observe` of each entry (PassedEntry on the table, IndexEntry on the index). */
export interface Skip<Entry = unknown> {
  /** How many matching resources to pass over. */
  count: number;
  /**
   * Which resources count. It sees their order fields only — `id`, and `createdAt` (table) or
   * `lastModifiedAt` (index) — so it must read no other field.
   */
  matches: (document: unknown) => boolean;
  /**
   * The stream's order (StoreAccess.streamOrder). The last resources passed that tie in it with
   * the last one are not passed after all: the page may order them otherwise (by id), so they are
   * read in full with the page.
   */
  order: (a: unknown, b: unknown) => number;
  /** Told every resource's entry the pass reads, matching or not, in the stream's order (and the one after the last passed, if read). */
  observe?: (entry: Entry) => void;
}

export interface Skipped {
  /** Matching resources passed over: `count`, fewer when the range has fewer or the last ones tie. */
  passed: number;
  /** Where the scan resumes; undefined: at the range's start. */
  after?: StreamPosition;
}

export interface LastModifiedRange {
  /** Inclusive bounds, ISO-8601 UTC instants as the store writes them (`toISOString`). */
  from?: string;
  to?: string;
  descending?: boolean;
  firstReadSize?: number;
  /** Start right after this position (from `skipByLastModified`). */
  after?: StreamPosition;
}

export interface ScanRange {
  fromId?: string;
  toId?: string;
  descending?: boolean;
  /**
   * Items the first read should fetch (then twice as many per read): a query that needs one page
   * reads about one page. Without it, each read fetches as much as the store allows.
   */
  firstReadSize?: number;
  /** Start right after this position (from `skip`). */
  after?: StreamPosition;
  /** Start right after the resource with this id (a position checkpoint); ignored with `after`. */
  afterId?: string;
}

export interface ProjectStats {
  /** How many resources the project has; undefined when the counters cannot tell (see legacy). */
  total: number | undefined;
  /** Every id of the project is creation-ordered: id order is `createdAt asc, id asc`. */
  idsInCreationOrder: boolean;
  /** How many resources were ever deleted: position checkpoints hold while it stands still, or are repaired. */
  deleted: number;
}

export interface NewResource {
  key?: string;
  objectTypeProperty: ArrayTestType;
}

export interface WriteByKeyOptions {
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
