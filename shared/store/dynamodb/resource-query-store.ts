import { BatchGetCommand, type BatchGetCommandOutput, QueryCommand, type QueryCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { QueryTimedOutError, StoreUnavailableError } from '../../domain/errors';
import type { StoreRange, StoreRead } from '../../domain/query/store-access';
import type { Resource } from '../../domain/resource';
import type { ResourceQueryStore } from '../resource-store';
import { RESOURCE_FIELDS, toResource } from './resource-items';
import { translateEngineError } from './errors';
import { keySentinelKey, projectPartition, RESOURCE_PREFIX, RESOURCE_RANGE_END, resourceKey, STATS_PREFIX, STATS_RANGE_END } from './keys';
import { LAST_MODIFIED_INDEX_SORT_KEY } from './table-schema';

/**
 * A sort key is at most 1024 bytes, and a lower bound from a predicate (`id > "…"`) may be longer:
 * its first 200 characters (at most 800 bytes) start the range, a lower bound still.
 */
const keySizedBound = (fromId = '') => [...fromId].slice(0, 200).join('');

/** Past this many items a read is limited by DynamoDB's 1 MB per Query anyway; also the size of a read not told otherwise. */
const MAX_READ_SIZE = 2_000;

/**
 * The most index entries a range read in id order holds (each about 100 bytes, a read unit per
 * ~80 of them): every one is read before the first resource, so past this the query times out
 * like one past its budget of resources, which costs far more per resource.
 */
const MAX_ID_ORDERED_ENTRIES = 100_000;

/**
 * Keys per BatchGetItem (DynamoDB takes 100): an answer is then at most 10 MB of resources at 400 KB
 * each, held as bytes, text and objects at once — room a 256 MB function has (bench `memory`); many
 * small resources take a few more requests.
 */
const BATCH_GET_LIMIT = 25;

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

type Key = Record<string, unknown>;
type Item = Record<string, unknown>;

/**
 * What queries read of the resources in the table (layout in keys.ts), and nothing else: resources
 * by ids or keys, ranges in id order or of the `lastModifiedAt` index, the project's counters. Every
 * read of a resource is strongly consistent. No writes: those are resource-store.ts's.
 */
export class DynamoDbResourceQueryStore implements ResourceQueryStore {
  readonly lastModifiedIndex: boolean;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The name of the `lastModifiedAt` index (table-schema.ts); none when the deployment removed it. */
    private readonly lastModifiedIndexName?: string,
  ) {
    this.lastModifiedIndex = Boolean(lastModifiedIndexName);
  }

  async *read(projectKey: string, read: StoreRead, firstReadSize = MAX_READ_SIZE): AsyncIterable<Resource> {
    if ('ids' in read) yield* this.getMany(projectKey, read.ids);
    else if ('keys' in read) yield* this.getManyByKey(projectKey, read.keys);
    else if (read.range.on === 'id') yield* this.idRange(projectKey, read.range, firstReadSize);
    else if (read.range.order === 'id') yield* this.lastModifiedRangeById(projectKey, read.range, firstReadSize);
    else yield* this.lastModifiedRange(projectKey, read.range, firstReadSize);
  }

  async countResources(projectKey: string): Promise<number> {
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
    return Items.reduce((sum, item) => sum + Number(item.resources ?? 0), 0);
  }

  /** A range of resource items in id order, or reversed; nothing when its bounds cross (DynamoDB refuses a BETWEEN with its ends reversed). */
  private async *idRange(projectKey: string, range: StoreRange, firstReadSize: number): AsyncIterable<Resource> {
    const from = `${RESOURCE_PREFIX}${keySizedBound(range.from)}`;
    // An upper bound is a prefix: '~' sorts after every character of an id.
    const to = range.to === undefined ? RESOURCE_RANGE_END : `${RESOURCE_PREFIX}${keySizedBound(range.to)}~`;
    if (sortKeyOrder(from, to) > 0) return;
    const query: QueryCommandInput = {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':from': from, ':to': to },
      ScanIndexForward: !range.descending,
      ConsistentRead: true,
      ...projection,
    };
    for await (const items of this.pages(query, firstReadSize)) yield* items.map(toResource);
  }

  /**
   * Pages of the index (keys and `lastModifiedAt` only), each followed by a strongly consistent
   * BatchGetItem of its resources. The index lags the table: an entry whose resource is gone, or
   * whose `lastModifiedAt` is no longer the resource's, is out of date, and its resource is left
   * out here (its current entry is elsewhere in the index), so nothing comes back stale or out of order.
   */
  private async *lastModifiedRange(projectKey: string, range: StoreRange, firstReadSize: number): AsyncIterable<Resource> {
    const yielded = new Set<string>();
    for await (const items of this.pages(this.indexQuery(projectKey, range), firstReadSize)) {
      const entries = resourceEntries(items);
      // BATCH_GET_LIMIT entries at a time (one BatchGetItem), so that the page's budget stops the reading (page-window.ts).
      for (let start = 0; start < entries.length; start += BATCH_GET_LIMIT) {
        const chunk = entries.slice(start, start + BATCH_GET_LIMIT);
        const current = await this.itemsById(chunk.map(({ pk, sk }) => ({ pk, sk })));
        for (const entry of chunk) {
          const id = (entry.sk as string).slice(RESOURCE_PREFIX.length);
          const item = current.get(id);
          // A resource updated between two index pages can have an entry on each: the first one counts.
          if (!item || item.lastModifiedAt !== entry[LAST_MODIFIED_INDEX_SORT_KEY] || yielded.has(id)) continue;
          yielded.add(id);
          yield toResource(item);
        }
      }
    }
  }

  /**
   * The same range in id order (or reversed): all its index entries (keys only, up to 1 MB per
   * Query), then its resources by id in strongly consistent chunks as the caller iterates;
   * out-of-date entries are left out as above.
   */
  private async *lastModifiedRangeById(projectKey: string, range: StoreRange, firstReadSize: number): AsyncIterable<Resource> {
    const entries = new Map<string, Set<unknown>>();
    let count = 0;
    for await (const items of this.pages(this.indexQuery(projectKey, range))) {
      count += items.length;
      if (count > MAX_ID_ORDERED_ENTRIES) {
        throw new QueryTimedOutError(`more than ${MAX_ID_ORDERED_ENTRIES} index entries`, 'Narrow the lastModifiedAt range, or sort by lastModifiedAt.');
      }
      for (const entry of resourceEntries(items)) {
        const id = (entry.sk as string).slice(RESOURCE_PREFIX.length);
        entries.set(id, (entries.get(id) ?? new Set()).add(entry[LAST_MODIFIED_INDEX_SORT_KEY]));
      }
    }
    const ids = [...entries.keys()].sort();
    if (range.descending) ids.reverse();
    // `firstReadSize` resources first, then twice as many, at most BATCH_GET_LIMIT at a time (the page's budget stops the reading).
    for (let start = 0, size = Math.min(firstReadSize, BATCH_GET_LIMIT); start < ids.length; start += size, size = Math.min(size * 2, BATCH_GET_LIMIT)) {
      const chunk = ids.slice(start, start + size);
      const current = await this.itemsById(chunk.map((id) => resourceKey(projectKey, id)));
      for (const id of chunk) {
        const item = current.get(id);
        if (item && entries.get(id)!.has(item.lastModifiedAt)) yield toResource(item);
      }
    }
  }

  /** The resources of these keys (at most BATCH_GET_LIMIT), by id. */
  private async itemsById(keys: Key[]): Promise<Map<string, Item>> {
    const current = new Map<string, Item>();
    for await (const items of this.batchGet(keys, projection)) for (const item of items) current.set(item.id as string, item);
    return current;
  }

  /** A Query of the `lastModifiedAt` index over a range (keys and `lastModifiedAt` only); nothing when its bounds cross. */
  private indexQuery(projectKey: string, range: StoreRange): QueryCommandInput | undefined {
    // Always both bounds: DynamoDB Local reads an unbounded index range slowly from its start.
    const { from = INSTANTS_START, to = INSTANTS_END } = range;
    if (from > to) return undefined;
    return {
      TableName: this.tableName,
      IndexName: this.lastModifiedIndexName,
      KeyConditionExpression: 'pk = :pk AND #at BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#at': LAST_MODIFIED_INDEX_SORT_KEY },
      ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':from': from, ':to': to },
      ScanIndexForward: !range.descending,
    };
  }

  /**
   * The pages of a Query, the first of `firstReadSize` items, then twice as many each; none read
   * ahead of the caller. Without a size, each page is what one Query reads (up to 1 MB).
   */
  private async *pages(query: QueryCommandInput | undefined, firstReadSize?: number): AsyncIterable<Item[]> {
    if (!query) return;
    let Limit = firstReadSize === undefined ? undefined : Math.min(firstReadSize, MAX_READ_SIZE);
    let ExclusiveStartKey: Key | undefined;
    do {
      const page = await this.db.send(new QueryCommand({ ...query, ExclusiveStartKey, Limit })).catch(translateEngineError);
      yield page.Items ?? [];
      ExclusiveStartKey = page.LastEvaluatedKey;
      // Twice what came back: of large items DynamoDB's 1 MB cut the page short, and asking for more
      // than it returns makes DynamoDB Local read them all (a page of 250 KB items: 4, not 2,000).
      Limit = Limit === undefined ? undefined : Math.min(Math.max(page.Items?.length ?? 0, 1) * 2, MAX_READ_SIZE);
    } while (ExclusiveStartKey);
  }

  private async *getMany(projectKey: string, ids: readonly string[]): AsyncIterable<Resource> {
    for await (const items of this.batchGet(unique(ids).map((id) => resourceKey(projectKey, id)), projection)) yield* items.map(toResource);
  }

  private async *getManyByKey(projectKey: string, keys: readonly string[]): AsyncIterable<Resource> {
    const wanted = unique(keys);
    const sentinels: Item[] = [];
    for await (const items of this.batchGet(wanted.map((key) => keySentinelKey(projectKey, key)))) sentinels.push(...items);
    // A key may have moved between the two reads: only resources that hold a wanted key answer.
    const keySet = new Set(wanted);
    for await (const resource of this.getMany(projectKey, sentinels.map((sentinel) => sentinel.resourceId as string))) {
      if (resource.key !== undefined && keySet.has(resource.key)) yield resource;
    }
  }

  /**
   * Strongly consistent BatchGetItem of any number of keys, retrying what DynamoDB leaves
   * unprocessed; the items of each answer as it comes (up to 16 MB of large resources), none held after.
   */
  private async *batchGet(keys: Key[], options: Partial<typeof projection> = {}): AsyncIterable<Item[]> {
    for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
      let pending: Key[] | undefined = keys.slice(start, start + BATCH_GET_LIMIT);
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt === BATCH_GET_ATTEMPTS) throw new StoreUnavailableError(new Error(`BatchGetItem left ${pending.length} keys unprocessed ${attempt} times`));
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt) * Math.random()));
        const answer: BatchGetCommandOutput = await this.db
          .send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true, ...options } } }))
          .catch(translateEngineError);
        pending = answer.UnprocessedKeys?.[this.tableName]?.Keys;
        yield answer.Responses?.[this.tableName] ?? [];
      }
    }
  }
}

/** How DynamoDB orders string sort keys: by their UTF-8 bytes (not JavaScript's UTF-16 units, which differ past U+FFFF). */
const sortKeyOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
/** Below and above every instant the store writes (ISO-8601 `toISOString`: a digit first). */
const INSTANTS_START = '0';
const INSTANTS_END = '~';

const unique = (values: readonly string[]) => [...new Set(values)];

/** Other items of the project may carry a lastModifiedAt too (the complex path's document): the index entries of resources only. */
const resourceEntries = (items: Item[]) => items.filter((entry) => typeof entry.sk === 'string' && entry.sk.startsWith(RESOURCE_PREFIX));
