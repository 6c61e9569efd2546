import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  PutCommand,
  QueryCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { StoreUnavailableError } from '../../domain/errors';
import type { Resource } from '../../domain/resource';
import type { IndexEntry, RecordedOrder } from '../../domain/query/last-modified-order';
import { MAX_REPAIRED_DELETES, type PassedEntry, type RecordedCheckpoints } from '../../domain/query/position-checkpoints';
import type { LastModifiedRange, ProjectStats, ResourceQueryStore, ScanRange, Skip, Skipped, StreamPosition } from '../resource-store';
import { RESOURCE_FIELDS, toResource } from './resource-items';
import { translateEngineError } from './errors';
import { conditionalWrite, itemsOf } from './operations';
import {
  checkpointsKey,
  keySentinelKey,
  lastModifiedOrderKey,
  legacyStatsKey,
  projectPartition,
  RESOURCE_PREFIX,
  RESOURCE_RANGE_END,
  resourceKey,
  STATS_PREFIX,
  STATS_RANGE_END,
  TOMBSTONE_PREFIX,
  TOMBSTONE_RANGE_END,
  tombstonedId,
} from './keys';
import { LAST_MODIFIED_INDEX_SORT_KEY } from './table-schema';

/**
 * A sort key is at most 1024 bytes, and a lower bound from a predicate (`id > "…"`) may be longer:
 * its first 200 characters (at most 800 bytes) start the range, a lower bound still.
 */
const keySizedBound = (fromId = '') => [...fromId].slice(0, 200).join('');

/** Past this many items a read is limited by DynamoDB's 1 MB per Query anyway. */
const MAX_READ_SIZE = 2_000;

/** BatchGetItem reads at most 100 keys per request. */
const BATCH_GET_LIMIT = 100;

/**
 * Keys a BatchGetItem leaves unprocessed (a throttled partition answers with some) are asked for
 * again, with backoff, this many times in all; then the store is unavailable (503), as after the
 * SDK's own retries of a throttled request — rather than asking until the Lambda times out.
 */
const BATCH_GET_ATTEMPTS = 6;

const projection = {
  ProjectionExpression: RESOURCE_FIELDS.map((_, index) => `#f${index}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(RESOURCE_FIELDS.map((field, index) => [`#f${index}`, field])),
};

/**
 * What queries read of the resources in the table (layout in keys.ts): ranges in id order, keys-only
 * passes over an offset, the optional `lastModifiedAt` index, resources by many ids or keys, the
 * project's counters, its position checkpoints and the tombstones they are repaired from. Reads of
 * resources are strongly consistent; only the writes of checkpoints live here, the resources' own
 * are resource-store.ts's. Apart from it so that functions that only query carry none of the writes.
 */
export class DynamoDbResourceQueryStore implements ResourceQueryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The name of the optional `lastModifiedAt` index (table-schema.ts), when the table has it. */
    private readonly lastModifiedIndex?: string,
  ) {}

  scan(projectKey: string, range: ScanRange = {}): AsyncIterable<Resource> {
    const query = this.resourceRange(projectKey, range);
    if (query === EMPTY) return mapItems(noItems(), toResource);
    let readSize = range.firstReadSize;
    const items = itemsOf((ExclusiveStartKey) => {
      const Limit = readSize;
      if (readSize !== undefined) readSize = Math.min(readSize * 2, MAX_READ_SIZE);
      return this.db.send(new QueryCommand({ ...query, ...projection, ExclusiveStartKey, ...(Limit === undefined ? {} : { Limit }) }));
    }, startOf(projectKey, range));
    return mapItems(items, toResource);
  }

  /**
   * Reads the range's keys and creation instants only (in DynamoDB a projection does not lower the
   * read units, which follow the size of the items read, but nothing else of them travels or is
   * decoded).
   */
  async skip(projectKey: string, range: ScanRange, skip: Skip<PassedEntry>): Promise<Skipped> {
    const query = this.resourceRange(projectKey, range);
    if (query === EMPTY) return { passed: 0 };
    const keys = { ProjectionExpression: '#pk, #sk, #createdAt', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#createdAt': 'createdAt' } };
    return passOver(
      (ExclusiveStartKey, Limit) => this.db.send(new QueryCommand({ ...query, ...keys, ExclusiveStartKey, Limit })).catch(translateEngineError),
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

  /**
   * The Query of a range of resource items, in id order or reversed, strongly consistent; EMPTY
   * when its bounds cross (conditions that exclude each other: `id >= "z" and id <= "a"`, an
   * empty window of creation), which DynamoDB would refuse as a BETWEEN with its ends reversed.
   */
  private resourceRange(projectKey: string, range: ScanRange) {
    const from = `${RESOURCE_PREFIX}${keySizedBound(range.fromId)}`;
    // An upper bound is a prefix: '~' sorts after every character of an id.
    const to = range.toId === undefined ? RESOURCE_RANGE_END : `${RESOURCE_PREFIX}${keySizedBound(range.toId)}~`;
    if (sortKeyOrder(from, to) > 0) return EMPTY;
    return {
      TableName: this.tableName,
      // Resource items only, within the ids wanted: the range ends where the prefix does.
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':from': from, ':to': to },
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
  skipByLastModified(projectKey: string, range: LastModifiedRange, skip: Skip<IndexEntry>): Promise<Skipped> | undefined {
    if (!this.lastModifiedIndex) return undefined;
    const query = this.lastModifiedRange(projectKey, this.lastModifiedIndex, range);
    if (query === EMPTY) return Promise.resolve({ passed: 0 });
    return passOver(
      (ExclusiveStartKey, Limit) => this.db.send(new QueryCommand({ ...query, ExclusiveStartKey, Limit })).catch(translateEngineError),
      // Only resources count (other items of the project may carry a lastModifiedAt too).
      (entry) => {
        if (!isResourceEntry(entry)) return undefined;
        const fields = indexEntryOf(entry);
        skip.observe?.(fields);
        return fields;
      },
      (entry) => ({ pk: entry.pk, sk: entry.sk, [LAST_MODIFIED_INDEX_SORT_KEY]: entry[LAST_MODIFIED_INDEX_SORT_KEY] }),
      range.after as Key | undefined,
      skip,
    );
  }

  async lastModifiedEntries(projectKey: string, range: LastModifiedRange, max: number): Promise<IndexEntry[] | undefined> {
    if (!this.lastModifiedIndex) return undefined;
    const query = this.lastModifiedRange(projectKey, this.lastModifiedIndex, range);
    if (query === EMPTY) return [];
    const entries: IndexEntry[] = [];
    for await (const item of itemsOf((ExclusiveStartKey) => this.db.send(new QueryCommand({ ...query, ExclusiveStartKey, Limit: max + 1 })))) {
      if (!isResourceEntry(item)) continue;
      entries.push(indexEntryOf(item));
      if (entries.length > max) return undefined;
    }
    return entries;
  }

  async lastModifiedOrder(projectKey: string, descending: boolean): Promise<RecordedOrder | undefined> {
    if (!this.lastModifiedIndex) return undefined; // none is ever recorded: no read
    // Eventually consistent is enough: any recording holds, brought up to date by what changed since it.
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: lastModifiedOrderKey(projectKey, descending) }))
      .catch(translateEngineError);
    if (!Item) return undefined;
    const entries = (Item.entries as string).split('\n').map((line) => {
      const space = line.indexOf(' ');
      return { lastModifiedAt: line.slice(0, space), id: line.slice(space + 1) };
    });
    return { descending, recordedAt: Item.recordedAt as string, settledBefore: Item.settledBefore as string, entries };
  }

  async recordLastModifiedOrder(projectKey: string, recorded: RecordedOrder): Promise<void> {
    await this.putNote(
      {
        ...lastModifiedOrderKey(projectKey, recorded.descending),
        type: 'lastModifiedOrder',
        recordedAt: recorded.recordedAt,
        settledBefore: recorded.settledBefore,
        // One string (`<lastModifiedAt> <id>` a line) rather than a list: ≈65 bytes an entry, one value to decode.
        entries: recorded.entries.map((entry) => `${entry.lastModifiedAt} ${entry.id}`).join('\n'),
      },
      { ConditionExpression: 'attribute_not_exists(recordedAt) OR recordedAt < :recordedAt', ExpressionAttributeValues: { ':recordedAt': recorded.recordedAt } },
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
      ids.push(tombstonedId(item.sk as string));
      if (ids.length > MAX_REPAIRED_DELETES) return undefined;
    }
    return ids;
  }

  async recordCheckpoints(projectKey: string, recorded: RecordedCheckpoints): Promise<void> {
    await this.putNote(
      {
        ...checkpointsKey(projectKey),
        type: 'checkpoints',
        deleted: recorded.deleted,
        // Two lists rather than a list of maps: about 45 bytes a checkpoint.
        positions: recorded.checkpoints.map((checkpoint) => checkpoint.position),
        ids: recorded.checkpoints.map((checkpoint) => checkpoint.id),
        ...(recorded.deletesSeen ? { seenSince: recorded.deletesSeen.since, seenIds: [...recorded.deletesSeen.ids] } : {}),
      },
      { ConditionExpression: 'attribute_not_exists(deleted) OR deleted <= :deleted', ExpressionAttributeValues: { ':deleted': recorded.deleted } },
    );
  }

  /** Writes a note of the queries for later pages when `writeIf` holds; otherwise a newer one is there, and kept. */
  private async putNote(Item: Record<string, unknown>, writeIf: { ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }): Promise<void> {
    await conditionalWrite(
      () => this.db.send(new PutCommand({ TableName: this.tableName, Item, ...writeIf })),
      () => undefined,
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

  /** Strongly consistent BatchGetItem of any number of keys, retrying what DynamoDB leaves unprocessed. */
  private async batchGet(keys: Record<string, unknown>[], options: Partial<typeof projection> = {}): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
      let pending: Record<string, unknown>[] | undefined = keys.slice(start, start + BATCH_GET_LIMIT);
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt === BATCH_GET_ATTEMPTS) throw new StoreUnavailableError(new Error(`BatchGetItem left ${pending.length} keys unprocessed ${attempt} times`));
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
}

/** A range whose bounds cross: nothing to read. */
const EMPTY = Symbol('empty range');

/** How DynamoDB orders string sort keys: by their UTF-8 bytes (not JavaScript's UTF-16 units, which differ past U+FFFF). */
const sortKeyOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
/** Below and above every instant the store writes (ISO-8601 `toISOString`: a digit first). */
const INSTANTS_START = '0';
const INSTANTS_END = '~';

type Key = Record<string, unknown>;

/** Index entries of resources: other items of the project may carry a lastModifiedAt too (row 9's document). */
const isResourceEntry = (entry: Record<string, unknown>) => typeof entry.sk === 'string' && entry.sk.startsWith(RESOURCE_PREFIX);
const idOf = (entry: Record<string, unknown>) => (entry.sk as string).slice(RESOURCE_PREFIX.length);
const indexEntryOf = (entry: Record<string, unknown>): IndexEntry => ({ id: idOf(entry), lastModifiedAt: entry[LAST_MODIFIED_INDEX_SORT_KEY] as string });

/**
 * Passes over the first `skip.count` matching entries of a keys-only Query, each read asking for
 * what is still to pass and one more (DynamoDB may answer fewer, at 1 MB of items read, and say
 * where to go on). When that next entry ties in the stream's order with the last one passed (or
 * cannot be seen), the trailing group that ties with it is given back, so that the page reads the
 * group whole and orders it itself.
 */
async function passOver(
  read: (exclusiveStartKey: Key | undefined, limit: number) => Promise<{ Items?: Record<string, unknown>[]; LastEvaluatedKey?: Key }>,
  orderFields: (entry: Record<string, unknown>) => object | undefined,
  positionOf: (entry: Record<string, unknown>) => Key,
  startAfter: Key | undefined,
  skip: Omit<Skip, 'observe'>,
): Promise<Skipped> {
  let passed = 0;
  let position = startAfter;
  // The trailing run of entries that tie in the stream's order: its first, the matches in it, and the position before it.
  let run: { first: object; matches: number; before: Key | undefined } | undefined;
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
