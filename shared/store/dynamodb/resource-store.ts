import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { DuplicateKeyError, ResourceNotFoundError, VersionConflictError } from '../../domain/errors';
import type { Resource } from '../../domain/resource';
import { creationOrderedId } from '../../domain/resource-id';
import { applyChanges, changesAlter, type ResourceChanges } from '../../domain/resource-changes';
import { MAX_REPAIRED_DELETES, TOMBSTONE_LIFETIME_MS, type RecordedCheckpoints } from '../../domain/query/position-checkpoints';
import type { KeyedDraft, LastModifiedRange, NewResource, ProjectStats, ResourceStore, ScanRange, Skip, Skipped, StreamPosition } from '../resource-store';
import { cancellationReasons, RetryableRace, translateEngineError } from './errors';
import { conditionalWrite, itemsOf } from './operations';
import { withRetries } from './retries';
import {
  checkpointsKey,
  keySentinelKey,
  legacyStatsKey,
  projectPartition,
  RESOURCE_PREFIX,
  RESOURCE_RANGE_END,
  resourceKey,
  STATS_PREFIX,
  STATS_RANGE_END,
  STATS_SHARDS,
  statsShardKey,
  TOMBSTONE_PREFIX,
  TOMBSTONE_RANGE_END,
  tombstoneKey,
} from './keys';
import { LAST_MODIFIED_INDEX_SORT_KEY, TABLE_TTL_ATTRIBUTE } from './table-schema';

const RESOURCE_FIELDS = ['id', 'key', 'version', 'createdAt', 'lastModifiedAt', 'objectTypeProperty', 'someProperty'] as const;

/**
 * A sort key is at most 1024 bytes, and a lower bound from a predicate (`id > "…"`) may be longer:
 * its first 200 characters (at most 800 bytes) start the range, a lower bound still.
 */
const keySizedBound = (fromId = '') => [...fromId].slice(0, 200).join('');

/** Past this many items a read is limited by DynamoDB's 1 MB per Query anyway. */
const MAX_READ_SIZE = 2_000;

/** BatchGetItem reads at most 100 keys per request. */
const BATCH_GET_LIMIT = 100;

const projection = {
  ProjectionExpression: RESOURCE_FIELDS.map((_, index) => `#f${index}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(RESOURCE_FIELDS.map((field, index) => [`#f${index}`, field])),
};

/**
 * Resources in one DynamoDB table (layout in keys.ts). Every guarantee is DynamoDB's own:
 * versions are checked by conditional writes (the failed condition returns the current item, so a
 * 409 knows `currentVersion` without a second read), keys are unique through sentinel items
 * written in the same transaction as the resource, and reads are strongly consistent. Creates
 * and deletes count the project's resources in the same transaction (one of 16 counter shards,
 * so that concurrent creates rarely touch the same counter item).
 */
export class DynamoDbResourceStore implements ResourceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => string = () => new Date().toISOString(),
    /** The name of the optional `lastModifiedAt` index (table-schema.ts), when the table has it. */
    private readonly lastModifiedIndex?: string,
  ) {}

  async get(projectKey: string, id: string): Promise<Resource | undefined> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: resourceKey(projectKey, id), ConsistentRead: true }))
      .catch(translateEngineError);
    return Item ? toResource(Item) : undefined;
  }

  async getByKey(projectKey: string, key: string): Promise<Resource | undefined> {
    const { Item: sentinel } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: keySentinelKey(projectKey, key), ConsistentRead: true }))
      .catch(translateEngineError);
    if (!sentinel) return undefined;
    const resource = await this.get(projectKey, sentinel.resourceId as string);
    // The key may have moved between the two reads: only the resource holding it answers.
    return resource?.key === key ? resource : undefined;
  }

  async create(projectKey: string, draft: NewResource): Promise<Resource> {
    return withRetries(() => this.createOnce(projectKey, draft));
  }

  async writeByKey(projectKey: string, draft: KeyedDraft, options: { createIfMissing: boolean }) {
    return withRetries(async () => {
      let holderId: string;
      if (options.createIfMissing) {
        try {
          return { resource: await this.createOnce(projectKey, draft), created: true };
        } catch (error) {
          if (!(error instanceof KeyHeldError)) throw error;
          holderId = error.holderId;
        }
      } else {
        const { Item: sentinel } = await this.db
          .send(new GetCommand({ TableName: this.tableName, Key: keySentinelKey(projectKey, draft.key), ConsistentRead: true }))
          .catch(translateEngineError);
        if (!sentinel) throw new ResourceNotFoundError(`The resource with key '${draft.key}'`);
        holderId = sentinel.resourceId as string;
      }
      return { resource: await this.replaceContent(projectKey, holderId, draft), created: false };
    });
  }

  async update(projectKey: string, id: string, expectedVersion: number, changes: ResourceChanges): Promise<Resource> {
    if (changes.key !== undefined) return withRetries(() => this.updateWithKey(projectKey, id, expectedVersion, changes));
    if (changes.someProperty === undefined) return this.unchanged(projectKey, id, expectedVersion);
    return withRetries(() => this.setSomeProperty(projectKey, id, expectedVersion, changes.someProperty!));
  }

  /** One conditional UpdateItem: version check, change and increment in a single round trip. */
  private async setSomeProperty(projectKey: string, id: string, expectedVersion: number, someProperty: string) {
    return conditionalWrite(async () => {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: resourceKey(projectKey, id),
          UpdateExpression: 'SET someProperty = :someProperty, version = version + :one, lastModifiedAt = :now',
          // Writing an equal value is no change: the version stays (see the failure branch).
          ConditionExpression:
            'attribute_exists(pk) AND version = :expected AND (attribute_not_exists(someProperty) OR someProperty <> :someProperty)',
          ExpressionAttributeValues: { ':someProperty': someProperty, ':one': 1, ':now': this.now(), ':expected': expectedVersion },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toResource(Attributes!);
      // The condition failed only because someProperty already had that value, if the version matches.
    }, (current) => checkVersion(current && toResource(current), id, expectedVersion));
  }

  /** A read, then one transaction that removes the resource, frees its key, counts it and leaves its tombstone. */
  async delete(projectKey: string, id: string, expectedVersion?: number): Promise<Resource> {
    return withRetries(async () => {
      const resource = checkVersion(await this.get(projectKey, id), id, expectedVersion);
      const deletedAt = this.now();
      await this.transact(
        [
          {
            Delete: {
              TableName: this.tableName,
              Key: resourceKey(projectKey, resource.id),
              ConditionExpression: 'version = :version',
              ExpressionAttributeValues: { ':version': resource.version },
            },
          },
          ...(resource.key === undefined ? [] : [{ Delete: this.sentinelDelete(projectKey, resource.key, resource.id) }]),
          { Update: this.countUpdate(projectKey, -1) },
          {
            Put: {
              TableName: this.tableName,
              Item: {
                ...tombstoneKey(projectKey, deletedAt, resource.id),
                type: 'tombstone',
                [TABLE_TTL_ATTRIBUTE]: Math.ceil((Date.parse(deletedAt) + TOMBSTONE_LIFETIME_MS) / 1000),
              },
            },
          },
        ],
        () => {
          throw new RetryableRace(); // changed meanwhile: start over and check again
        },
      );
      return resource;
    });
  }

  scan(projectKey: string, range: ScanRange = {}): AsyncIterable<Resource> {
    let readSize = range.firstReadSize;
    const items = itemsOf((ExclusiveStartKey) => {
      const Limit = readSize;
      if (readSize !== undefined) readSize = Math.min(readSize * 2, MAX_READ_SIZE);
      return this.db.send(
        new QueryCommand({ ...this.resourceRange(projectKey, range), ...projection, ExclusiveStartKey, ...(Limit === undefined ? {} : { Limit }) }),
      );
    }, startOf(projectKey, range));
    return mapItems(items, toResource);
  }

  /**
   * Reads the range's keys and creation instants only (in DynamoDB a projection does not lower the
   * read units, which follow the size of the items read, but nothing else of them travels or is
   * decoded).
   */
  async skip(projectKey: string, range: ScanRange, skip: Skip): Promise<Skipped> {
    const keys = { ProjectionExpression: '#pk, #sk, #createdAt', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#createdAt': 'createdAt' } };
    return passOver(
      (ExclusiveStartKey, Limit) =>
        this.db.send(new QueryCommand({ ...this.resourceRange(projectKey, range), ...keys, ExclusiveStartKey, Limit })).catch(translateEngineError),
      (entry) => {
        const fields = { id: idOf(entry), createdAt: entry.createdAt as string };
        skip.observe?.(fields);
        return fields;
      },
      (entry) => ({ pk: entry.pk, sk: entry.sk }),
      startOf(projectKey, range),
      skip,
    );
  }

  /** The Query of a range of resource items, in id order or reversed, strongly consistent. */
  private resourceRange(projectKey: string, range: ScanRange) {
    return {
      TableName: this.tableName,
      // Resource items only, within the ids wanted: the range ends where the prefix does.
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': projectPartition(projectKey),
        ':from': `${RESOURCE_PREFIX}${keySizedBound(range.fromId)}`,
        // An upper bound is a prefix: '~' sorts after every character of an id.
        ':to': range.toId === undefined ? RESOURCE_RANGE_END : `${RESOURCE_PREFIX}${keySizedBound(range.toId)}~`,
      },
      ScanIndexForward: !range.descending,
      ConsistentRead: true,
    };
  }

  scanByLastModified(projectKey: string, range: LastModifiedRange): AsyncIterable<Resource> | undefined {
    if (!this.lastModifiedIndex) return undefined;
    return this.readByLastModified(projectKey, this.lastModifiedIndex, range);
  }

  idsByLastModified(projectKey: string, range: LastModifiedRange): AsyncIterable<string> | undefined {
    if (!this.lastModifiedIndex) return undefined;
    const query = this.lastModifiedRange(projectKey, this.lastModifiedIndex, range);
    if (query === EMPTY) return mapItems(noItems(), idOf);
    const entries = itemsOf((ExclusiveStartKey) => this.db.send(new QueryCommand({ ...query, ExclusiveStartKey })), range.after as Key | undefined);
    return mapItems(onlyResourceEntries(entries), idOf);
  }

  /** The index entries only (KEYS_ONLY: keys and `lastModifiedAt`), none of their resources re-read. */
  skipByLastModified(projectKey: string, range: LastModifiedRange, skip: Skip): Promise<Skipped> | undefined {
    if (!this.lastModifiedIndex) return undefined;
    const query = this.lastModifiedRange(projectKey, this.lastModifiedIndex, range);
    if (query === EMPTY) return Promise.resolve({ passed: 0 });
    return passOver(
      (ExclusiveStartKey, Limit) => this.db.send(new QueryCommand({ ...query, ExclusiveStartKey, Limit })).catch(translateEngineError),
      // Only resources count (other items of the project may carry a lastModifiedAt too).
      (entry) => (isResourceEntry(entry) ? { id: idOf(entry), lastModifiedAt: entry[LAST_MODIFIED_INDEX_SORT_KEY] } : undefined),
      (entry) => ({ pk: entry.pk, sk: entry.sk, [LAST_MODIFIED_INDEX_SORT_KEY]: entry[LAST_MODIFIED_INDEX_SORT_KEY] }),
      range.after as Key | undefined,
      skip,
    );
  }

  /**
   * Pages of the index (keys and `lastModifiedAt` only), each followed by a strongly consistent
   * BatchGetItem of its resources. An entry whose resource is gone, or whose `lastModifiedAt` is no
   * longer the resource's, is out of date (the index lags the table): that resource is left out
   * here — its current entry is elsewhere in the index — so nothing comes back stale or out of order.
   */
  private async *readByLastModified(projectKey: string, indexName: string, range: LastModifiedRange): AsyncIterable<Resource> {
    const query = this.lastModifiedRange(projectKey, indexName, range);
    if (query === EMPTY) return;
    const yielded = new Set<string>();
    let readSize = range.firstReadSize;
    let ExclusiveStartKey = range.after as Key | undefined;
    do {
      const Limit = readSize;
      if (readSize !== undefined) readSize = Math.min(readSize * 2, MAX_READ_SIZE);
      const page = await this.db
        .send(new QueryCommand({ ...query, ExclusiveStartKey, ...(Limit === undefined ? {} : { Limit }) }))
        .catch(translateEngineError);
      const entries = (page.Items ?? []).filter(isResourceEntry);
      const current = new Map(
        (await this.batchGet(entries.map(({ pk, sk }) => ({ pk, sk })), projection)).map((item) => [item.id as string, item]),
      );
      for (const entry of entries) {
        const id = idOf(entry);
        const item = current.get(id);
        // A resource updated between two index pages can have an entry on each: the first one counts.
        if (!item || item.lastModifiedAt !== entry[LAST_MODIFIED_INDEX_SORT_KEY] || yielded.has(id)) continue;
        yielded.add(id);
        yield toResource(item);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }

  /** The Query of a range of the index, or EMPTY when its bounds cross. */
  private lastModifiedRange(projectKey: string, indexName: string, range: LastModifiedRange) {
    // Always both bounds: DynamoDB Local reads an unbounded index range slowly from its start
    // (26.5 ms against 5.1 ms for the first 21 entries of 100,000, ascending; same read units).
    const { from = INSTANTS_START, to = INSTANTS_END } = range;
    if (from > to) return EMPTY;
    return {
      TableName: this.tableName,
      IndexName: indexName,
      KeyConditionExpression: 'pk = :pk AND #at BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#at': LAST_MODIFIED_INDEX_SORT_KEY },
      ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':from': from, ':to': to },
      ScanIndexForward: !range.descending,
    };
  }

  async getMany(projectKey: string, ids: readonly string[]): Promise<Resource[]> {
    const items = await this.batchGet(unique(ids).map((id) => resourceKey(projectKey, id)), projection);
    return items.map(toResource);
  }

  async getManyByKey(projectKey: string, keys: readonly string[]): Promise<Resource[]> {
    const wanted = unique(keys);
    const sentinels = await this.batchGet(wanted.map((key) => keySentinelKey(projectKey, key)));
    const resources = await this.getMany(projectKey, sentinels.map((sentinel) => sentinel.resourceId as string));
    // A key may have moved between the two reads: only resources that hold a wanted key answer.
    const keySet = new Set(wanted);
    return resources.filter((resource) => resource.key !== undefined && keySet.has(resource.key));
  }

  async stats(projectKey: string): Promise<ProjectStats> {
    const { Items = [] } = await this.db
      .send(
        new QueryCommand({
          TableName: this.tableName,
          // A range rather than begins_with: the same in DynamoDB, far faster in DynamoDB Local.
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':from': STATS_PREFIX, ':to': STATS_RANGE_END },
          ConsistentRead: true,
        }),
      )
      .catch(translateEngineError);
    const sum = (field: string) => Items.reduce((sum, item) => sum + Number(item[field] ?? 0), 0);
    const total = sum('resources');
    const idsInCreationOrder = !Items.some((item) => item.unorderedIds === true);
    // A negative count can only come from a project whose resources predate the counters.
    return { total: total >= 0 ? total : undefined, idsInCreationOrder, deleted: sum('deleted') };
  }

  async checkpoints(projectKey: string): Promise<RecordedCheckpoints | undefined> {
    // Eventually consistent is enough: any version of the item is valid while its delete count is current.
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: checkpointsKey(projectKey) })).catch(translateEngineError);
    if (!Item) return undefined;
    const ids = Item.ids as string[];
    const checkpoints = (Item.positions as number[]).map((position, index) => ({ position, id: ids[index]! }));
    const seen = typeof Item.seenSince === 'string' ? { deletesSeen: { since: Item.seenSince, ids: (Item.seenIds as string[] | undefined) ?? [] } } : {};
    return { deleted: Item.deleted as number, checkpoints, ...seen };
  }

  async deletesSince(projectKey: string, since: string): Promise<string[] | undefined> {
    const ids: string[] = [];
    // Keys only; strongly consistent, as the counters it is held against.
    for await (const item of itemsOf((ExclusiveStartKey) =>
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':from': `${TOMBSTONE_PREFIX}${since}`, ':to': TOMBSTONE_RANGE_END },
          ProjectionExpression: 'sk',
          ConsistentRead: true,
          ExclusiveStartKey,
          Limit: MAX_REPAIRED_DELETES + 1,
        }),
      ),
    )) {
      const sk = item.sk as string;
      ids.push(sk.slice(sk.lastIndexOf('#') + 1));
      if (ids.length > MAX_REPAIRED_DELETES) return undefined;
    }
    return ids;
  }

  async recordCheckpoints(projectKey: string, recorded: RecordedCheckpoints): Promise<void> {
    await conditionalWrite(
      () =>
        this.db.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...checkpointsKey(projectKey),
              type: 'checkpoints',
              deleted: recorded.deleted,
              // Two lists rather than a list of maps: about 45 bytes a checkpoint.
              positions: recorded.checkpoints.map((checkpoint) => checkpoint.position),
              ids: recorded.checkpoints.map((checkpoint) => checkpoint.id),
              ...(recorded.deletesSeen ? { seenSince: recorded.deletesSeen.since, seenIds: [...recorded.deletesSeen.ids] } : {}),
            },
            ConditionExpression: 'attribute_not_exists(deleted) OR deleted <= :deleted',
            ExpressionAttributeValues: { ':deleted': recorded.deleted },
          }),
        ),
      () => undefined, // checkpoints of a later delete count are there: keep those
    );
  }

  /**
   * Marks a project whose resources predate the counters and ordered ids (the one-off migration):
   * `resources` is their count at the time, and `unorderedIds` keeps `createdAt` queries on the
   * exact (budgeted) evaluator for this project.
   */
  async markLegacy(projectKey: string, resources: number, unorderedIds = true): Promise<void> {
    await this.db
      .send(new PutCommand({ TableName: this.tableName, Item: { ...legacyStatsKey(projectKey), type: 'stats', resources, unorderedIds } }))
      .catch(translateEngineError);
  }

  private async createOnce(projectKey: string, draft: NewResource): Promise<Resource> {
    const now = this.now();
    const resource: Resource = {
      id: creationOrderedId(now),
      ...(draft.key === undefined ? {} : { key: draft.key }),
      version: 1,
      createdAt: now,
      lastModifiedAt: now,
      objectTypeProperty: draft.objectTypeProperty,
    };
    const put = { TableName: this.tableName, Item: toItem(projectKey, resource), ConditionExpression: 'attribute_not_exists(pk)' };
    const sentinel = draft.key === undefined ? [] : [{ Put: this.sentinelPut(projectKey, draft.key, resource.id) }];
    await this.transact([{ Put: put }, ...sentinel, { Update: this.countUpdate(projectKey, 1) }], (reasons) => {
      const holder = reasons[1];
      if (draft.key !== undefined && holder?.code === 'ConditionalCheckFailed') {
        throw new KeyHeldError(draft.key, holder.item?.resourceId as string);
      }
    });
    return resource;
  }

  /** Replaces the content of the resource that holds `draft.key`, one version up. */
  private async replaceContent(projectKey: string, id: string, draft: KeyedDraft): Promise<Resource> {
    return conditionalWrite(async () => {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: resourceKey(projectKey, id),
          UpdateExpression: 'SET objectTypeProperty = :content, version = version + :one, lastModifiedAt = :now',
          ConditionExpression: `attribute_exists(pk) AND #key = :key${draft.expectedVersion === undefined ? '' : ' AND version = :expected'}`,
          ExpressionAttributeNames: { '#key': 'key' },
          ExpressionAttributeValues: {
            ':content': draft.objectTypeProperty,
            ':one': 1,
            ':now': this.now(),
            ':key': draft.key,
            ...(draft.expectedVersion === undefined ? {} : { ':expected': draft.expectedVersion }),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toResource(Attributes!);
    }, (current) => {
      // The key moved to another resource (or was freed) since we looked it up: look again.
      if (current?.key !== draft.key) throw new RetryableRace();
      throw new VersionConflictError(draft.expectedVersion, current.version as number);
    });
  }

  /** Answers a request that changes nothing: the resource as it is, if the version matches. */
  private async unchanged(projectKey: string, id: string, expectedVersion: number): Promise<Resource> {
    return checkVersion(await this.get(projectKey, id), id, expectedVersion);
  }

  /**
   * A key change moves the key sentinel in the same transaction as the resource; that needs the
   * current key, hence the read first. The transaction's version condition keeps it safe.
   */
  private async updateWithKey(projectKey: string, id: string, expectedVersion: number, changes: ResourceChanges) {
    const current = checkVersion(await this.get(projectKey, id), id, expectedVersion);
    if (!changesAlter(current, changes)) return current;
    const next = applyChanges(current, changes, this.now());

    await this.transact(
      [
        {
          Put: {
            TableName: this.tableName,
            Item: toItem(projectKey, next),
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':expected': current.version },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        ...(next.key === undefined ? [] : [{ Put: this.sentinelPut(projectKey, next.key, id) }]),
        ...(current.key === undefined ? [] : [{ Delete: this.sentinelDelete(projectKey, current.key, id) }]),
      ],
      (reasons) => {
        const [resource, newSentinel] = reasons;
        if (resource?.code === 'ConditionalCheckFailed') {
          // No item came back: the resource was deleted after it was read — the update lost to a
          // delete, which is 404 ResourceNotFound (semantics row 10), not a 409 without currentVersion.
          if (!resource.item) throw new ResourceNotFoundError(`The resource with id '${id}'`);
          throw new VersionConflictError(expectedVersion, resource.item.version as number | undefined);
        }
        if (next.key !== undefined && newSentinel?.code === 'ConditionalCheckFailed') throw new DuplicateKeyError(next.key);
      },
    );
    return next;
  }

  private sentinelPut(projectKey: string, key: string, id: string) {
    return {
      TableName: this.tableName,
      Item: { ...keySentinelKey(projectKey, key), type: 'resource-key', resourceId: id },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
  }

  /**
   * Adds `delta` to one counter shard, chosen at random (concurrent transactions on one item
   * conflict); a delete also counts itself as one, which invalidates the position checkpoints.
   */
  private countUpdate(projectKey: string, delta: 1 | -1) {
    return {
      TableName: this.tableName,
      Key: statsShardKey(projectKey, Math.floor(Math.random() * STATS_SHARDS)),
      UpdateExpression: `SET #type = :type ADD resources :delta${delta < 0 ? ', deleted :one' : ''}`,
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'stats', ':delta': delta, ...(delta < 0 ? { ':one': 1 } : {}) },
    };
  }

  /** Strongly consistent BatchGetItem of any number of keys, retrying what DynamoDB leaves unprocessed. */
  private async batchGet(keys: Record<string, unknown>[], options: Partial<typeof projection> = {}): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
      let pending: Record<string, unknown>[] | undefined = keys.slice(start, start + BATCH_GET_LIMIT);
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt) * Math.random()));
        const answer: BatchGetCommandOutput = await this.db
          .send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true, ...options } } }))
          .catch(translateEngineError);
        items.push(...(answer.Responses?.[this.tableName] ?? []));
        pending = answer.UnprocessedKeys?.[this.tableName]?.Keys;
      }
    }
    return items;
  }

  private sentinelDelete(projectKey: string, key: string, id: string) {
    return {
      TableName: this.tableName,
      Key: keySentinelKey(projectKey, key),
      ConditionExpression: 'resourceId = :id',
      ExpressionAttributeValues: { ':id': id },
    };
  }

  /**
   * Runs a transaction. A cancellation goes to `explain`, which throws the domain's reading of
   * it; conflicts with concurrent transactions are retried.
   */
  private async transact(
    items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>,
    explain: (reasons: { code: string; item?: Record<string, unknown> }[]) => void,
  ): Promise<void> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) return translateEngineError(error);
      if (reasons.some((reason) => reason.code === 'TransactionConflict')) throw new RetryableRace();
      explain(reasons);
      throw new RetryableRace();
    }
  }
}

/** The key is held by another resource (internal to create-or-overwrite). */
class KeyHeldError extends DuplicateKeyError {
  constructor(
    key: string,
    readonly holderId: string,
  ) {
    super(key);
  }
}

/** The resource, if it exists at the expected version (when one is expected). */
function checkVersion(resource: Resource | undefined, id: string, expectedVersion: number | undefined): Resource {
  if (!resource) throw new ResourceNotFoundError(`The resource with id '${id}'`);
  if (expectedVersion !== undefined && resource.version !== expectedVersion) {
    throw new VersionConflictError(expectedVersion, resource.version);
  }
  return resource;
}

/** A range whose bounds cross: nothing to read. */
const EMPTY = Symbol('empty range');
/** Below and above every instant the store writes (ISO-8601 `toISOString`: a digit first). */
const INSTANTS_START = '0';
const INSTANTS_END = '~';

type Key = Record<string, unknown>;

/** Index entries of resources: other items of the project may carry a lastModifiedAt too (row 9's document). */
const isResourceEntry = (entry: Record<string, unknown>) => typeof entry.sk === 'string' && entry.sk.startsWith(RESOURCE_PREFIX);
const idOf = (entry: Record<string, unknown>) => (entry.sk as string).slice(RESOURCE_PREFIX.length);

/**
 * Passes over the first `skip.count` matching entries of a keys-only Query, each read asking for
 * what is still to pass and one more (DynamoDB may answer fewer, at 1 MB of items read, and say
 * where to go on). When that next entry ties in the stream's order with the last one passed (or
 * cannot be seen), the trailing group that ties with it is given back, so that the page reads the
 * group whole and orders it itself.
 */
async function passOver(
  read: (exclusiveStartKey: Key | undefined, limit: number) => Promise<{ Items?: Record<string, unknown>[]; LastEvaluatedKey?: Key }>,
  orderFields: (entry: Record<string, unknown>) => Record<string, unknown> | undefined,
  positionOf: (entry: Record<string, unknown>) => Key,
  startAfter: Key | undefined,
  skip: Skip,
): Promise<Skipped> {
  let passed = 0;
  let position = startAfter;
  // The trailing run of entries that tie in the stream's order: its first, the matches in it, and the position before it.
  let run: { first: Record<string, unknown>; matches: number; before: Key | undefined } | undefined;
  // Whether the entry after the last one passed ties with it; undefined while unseen.
  let tiesAhead: boolean | undefined;
  let exclusiveStartKey = startAfter;
  reading: while (passed < skip.count) {
    const page = await read(exclusiveStartKey, skip.count - passed + 1);
    for (const entry of page.Items ?? []) {
      const fields = orderFields(entry);
      if (!fields) {
        position = positionOf(entry);
        continue;
      }
      if (passed === skip.count) {
        tiesAhead = run !== undefined && skip.order(run.first, fields) === 0;
        break reading;
      }
      if (!run || skip.order(run.first, fields) !== 0) run = { first: fields, matches: 0, before: position };
      if (skip.matches(fields)) {
        passed++;
        run.matches++;
      }
      position = positionOf(entry);
    }
    exclusiveStartKey = page.LastEvaluatedKey;
    if (!exclusiveStartKey) {
      tiesAhead = false; // the range ends here
      break;
    }
  }
  if (tiesAhead !== false && run && run.matches > 0) {
    passed -= run.matches;
    position = run.before;
  }
  return { passed, ...(position ? { after: position as StreamPosition } : {}) };
}

async function* mapItems<T>(items: AsyncIterable<Record<string, unknown>>, map: (item: Record<string, unknown>) => T): AsyncIterable<T> {
  for await (const item of items) yield map(item);
}

async function* noItems(): AsyncIterable<Record<string, unknown>> {}

async function* onlyResourceEntries(entries: AsyncIterable<Record<string, unknown>>): AsyncIterable<Record<string, unknown>> {
  for await (const entry of entries) if (isResourceEntry(entry)) yield entry;
}

const unique = (values: readonly string[]) => [...new Set(values)];

/** Where a range's read starts: after a stream position, after a resource, or at the range's start. */
const startOf = (projectKey: string, range: ScanRange): Key | undefined =>
  (range.after as Key | undefined) ?? (range.afterId === undefined ? undefined : resourceKey(projectKey, range.afterId));

function toItem(projectKey: string, resource: Resource) {
  return { ...resourceKey(projectKey, resource.id), type: 'resource', ...resource };
}

function toResource(item: Record<string, unknown>): Resource {
  const resource: Record<string, unknown> = {};
  for (const field of RESOURCE_FIELDS) if (item[field] !== undefined) resource[field] = item[field];
  return resource as Resource;
}
