import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { DuplicateKeyError, ResourceNotFoundError, VersionConflictError } from '../../domain/errors';
import type { Resource } from '../../domain/resource';
import { creationOrderedId } from '../../domain/resource-id';
import { applyChanges, changedFields, changesAlter, modificationTime, type ResourceChanges } from '../../domain/resource-changes';
import { IDEMPOTENCY_RECORD_SECONDS } from '../../domain/limits';
import type { CreateOptions, KeyedDraft, NewResource, ResourceStore, WriteByKeyOptions } from '../resource-store';
import { toResource } from './resource-items';
import { cancellationReasons, RetryableRace, translateEngineError } from './errors';
import { conditionalWrite, sendTransaction } from './operations';
import { newWriteToken } from './write-tokens';
import { withRetries } from './retries';
import { createdByKey, keySentinelKey, resourceKey, STATS_SHARDS, statsShardKey } from './keys';
import { TABLE_TTL_ATTRIBUTE } from './table-schema';

/**
 * Resources in one DynamoDB table (layout in keys.ts), one at a time: reads by id or key and every
 * write (what queries read — ranges, counters — is resource-query-store.ts's). Every
 * guarantee is DynamoDB's own: versions are checked by conditional writes (the failed condition
 * returns the current item, so a 409 knows `currentVersion` without a second read), keys are
 * unique through sentinel items written in the same transaction as the resource, and reads are
 * strongly consistent. Creates and deletes count the project's resources in the same transaction
 * (one of 16 counter shards, so that concurrent creates rarely touch the same counter item).
 */
export class DynamoDbResourceStore implements ResourceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  async get(projectKey: string, id: string): Promise<Resource | undefined> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: resourceKey(projectKey, id), ConsistentRead: true }))
      .catch(translateEngineError);
    return Item ? toResource(Item) : undefined;
  }

  async getByKey(projectKey: string, key: string): Promise<Resource | undefined> {
    const holderId = await this.keyHolder(projectKey, key);
    if (holderId === undefined) return undefined;
    const resource = await this.get(projectKey, holderId);
    // The key may have moved between the two reads: only the resource holding it answers.
    return resource?.key === key ? resource : undefined;
  }

  async create(projectKey: string, draft: NewResource, options: CreateOptions = {}): Promise<Resource> {
    return withRetries(() => this.createOnce(projectKey, draft, options.requestHash));
  }

  async writeByKey(projectKey: string, draft: KeyedDraft, options: WriteByKeyOptions) {
    const clock = new ModificationClock(this.now);
    return withRetries(async () => {
      // Reading the key first costs a read when it turns out free; claiming it first, a cancelled
      // transaction when it turns out held (WriteByKeyOptions.expectHeld; docs/design.md, "Keys").
      let holderId = options.expectHeld || !options.createIfMissing ? await this.keyHolder(projectKey, draft.key) : undefined;
      if (holderId === undefined) {
        if (!options.createIfMissing) throw new ResourceNotFoundError(`The resource with key '${draft.key}'`);
        try {
          return { resource: await this.createOnce(projectKey, draft, options.requestHash), created: true };
        } catch (error) {
          if (!(error instanceof KeyHeldError)) throw error;
          holderId = error.holderId; // held after all (or taken since it was read)
        }
      }
      return { resource: await this.replaceContent(projectKey, holderId, draft, clock), created: false };
    });
  }

  /** The id of the resource holding the key, from its sentinel (strongly consistent). */
  private async keyHolder(projectKey: string, key: string): Promise<string | undefined> {
    const { Item: sentinel } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: keySentinelKey(projectKey, key), ConsistentRead: true }))
      .catch(translateEngineError);
    return sentinel?.resourceId as string | undefined;
  }

  async update(projectKey: string, id: string, expectedVersion: number, changes: ResourceChanges): Promise<Resource> {
    if (changes.key !== undefined) return withRetries(() => this.updateWithKey(projectKey, id, expectedVersion, changes));
    if (changedFields(changes).length === 0) return this.unchanged(projectKey, id, expectedVersion);
    const clock = new ModificationClock(this.now);
    return withRetries(() => this.writeChanges(projectKey, id, expectedVersion, changes, clock));
  }

  /** One conditional UpdateItem: version check, the changed fields and the increment in a single round trip. */
  private async writeChanges(projectKey: string, id: string, expectedVersion: number, changes: ResourceChanges, clock = new ModificationClock(this.now)) {
    const token = newWriteToken();
    const fields = changeClauses(changes);
    return conditionalWrite(async () => {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: resourceKey(projectKey, id),
          UpdateExpression: `SET ${[...fields.set, 'version = version + :one', 'lastModifiedAt = :now', token.set].join(', ')}${fields.remove.length ? ` REMOVE ${fields.remove.join(', ')}` : ''}`,
          // Changes equal to what the resource holds are no change: the version stays (see the failure branch).
          ConditionExpression: `attribute_exists(pk) AND version = :expected AND (${fields.alter}) AND ${token.condition} AND ${MODIFIED_BEFORE_NOW}`,
          ExpressionAttributeNames: fields.names,
          ExpressionAttributeValues: { ...fields.values, ':one': 1, ':now': clock.next(), ':expected': expectedVersion, ...token.values },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toResource(Attributes!);
    }, (current) => {
      // The SDK sent this write again after an attempt that was applied (write-tokens.ts).
      if (token.appliedIn(current)) return toResource(current!);
      const resource = checkVersion(current && toResource(current), id, expectedVersion);
      // The version matches: the resource already held the changes (no change), or its time is not earlier than ours.
      if (!changesAlter(resource, changes)) return resource;
      throw clock.retryAfter(resource.lastModifiedAt);
    });
  }

  /** A read, then one transaction that removes the resource, frees its key and counts it. */
  async delete(projectKey: string, id: string, expectedVersion?: number): Promise<Resource> {
    return withRetries(async () => {
      const resource = checkVersion(await this.get(projectKey, id), id, expectedVersion);
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
        ],
        () => {
          throw new RetryableRace(); // changed meanwhile: start over and check again
        },
      );
      return resource;
    });
  }

  /**
   * One transaction: the resource, its key's sentinel, the count and, for a request with an
   * Idempotency-Key, the id under the request's hash (CREATED_BY, keys.ts): the retry of a create
   * applied but never answered (503) finds it and answers that resource instead of making another.
   */
  private async createOnce(projectKey: string, draft: NewResource, requestHash?: string): Promise<Resource> {
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
    const createdBy = requestHash === undefined ? [] : [{ Put: this.createdByPut(projectKey, requestHash, resource.id, now) }];
    const createdBefore = await this.transact([{ Put: put }, ...sentinel, { Update: this.countUpdate(projectKey, 1) }, ...createdBy], (reasons) => {
      const [holder, made] = [reasons[1], reasons.at(-1)];
      // Made by an earlier attempt of this request (which holds the key too, so this comes first).
      if (requestHash !== undefined && made?.code === 'ConditionalCheckFailed' && made.item) return made.item.resourceId as string;
      if (draft.key !== undefined && holder?.code === 'ConditionalCheckFailed') {
        throw new KeyHeldError(draft.key, holder.item?.resourceId as string);
      }
    });
    if (createdBefore === undefined) return resource;
    // As it is now; deleted since, the create is undone: 404, not a second resource.
    return checkVersion(await this.get(projectKey, createdBefore), createdBefore, undefined);
  }

  /** The id a request with an Idempotency-Key creates, kept as long as its answer would be (expired, it no longer counts). */
  private createdByPut(projectKey: string, requestHash: string, id: string, now: string) {
    const nowSeconds = Math.floor(Date.parse(now) / 1000);
    return {
      TableName: this.tableName,
      Item: { ...createdByKey(projectKey, requestHash), type: 'created-by', resourceId: id, [TABLE_TTL_ATTRIBUTE]: nowSeconds + IDEMPOTENCY_RECORD_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk) OR #expiresAt < :now',
      ExpressionAttributeNames: { '#expiresAt': TABLE_TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':now': nowSeconds },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
  }

  /** Replaces the content of the resource that holds `draft.key`, one version up. */
  private async replaceContent(projectKey: string, id: string, draft: KeyedDraft, clock: ModificationClock): Promise<Resource> {
    const token = newWriteToken();
    return conditionalWrite(async () => {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: resourceKey(projectKey, id),
          UpdateExpression: `SET objectTypeProperty = :content, version = version + :one, lastModifiedAt = :now, ${token.set}`,
          ConditionExpression: `attribute_exists(pk) AND #key = :key${draft.expectedVersion === undefined ? '' : ' AND version = :expected'} AND ${token.condition} AND ${MODIFIED_BEFORE_NOW}`,
          ExpressionAttributeNames: { '#key': 'key' },
          ExpressionAttributeValues: {
            ':content': draft.objectTypeProperty,
            ':one': 1,
            ':now': clock.next(),
            ':key': draft.key,
            ...(draft.expectedVersion === undefined ? {} : { ':expected': draft.expectedVersion }),
            ...token.values,
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toResource(Attributes!);
    }, (current) => {
      // The SDK sent this write again after an attempt that was applied (write-tokens.ts).
      if (token.appliedIn(current)) return toResource(current!);
      // The key moved to another resource (or was freed) since we looked it up: look again.
      if (current?.key !== draft.key) throw new RetryableRace();
      if (draft.expectedVersion !== undefined && current.version !== draft.expectedVersion) {
        throw new VersionConflictError(draft.expectedVersion, current.version as number);
      }
      // Only the time failed: the resource carries one not earlier than ours.
      throw clock.retryAfter(current.lastModifiedAt as string);
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
    // setKey to the key the resource already holds, beside a real change: the key does not move.
    if ((changes.key ?? undefined) === current.key) return this.writeChanges(projectKey, id, expectedVersion, { ...changes, key: undefined });
    const next = applyChanges(current, changes, modificationTime(this.now(), current.lastModifiedAt));

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
          // delete, which is 404 ResourceNotFound (as POST /{projectKey}/resource/{id} is defined), not a 409 without currentVersion.
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

  /** Adds `delta` to one counter shard, chosen at random (concurrent transactions on one item conflict). */
  private countUpdate(projectKey: string, delta: 1 | -1) {
    return {
      TableName: this.tableName,
      Key: statsShardKey(projectKey, Math.floor(Math.random() * STATS_SHARDS)),
      UpdateExpression: 'SET #type = :type ADD resources :delta',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'stats', ':delta': delta },
    };
  }

  private sentinelDelete(projectKey: string, key: string, id: string) {
    return { TableName: this.tableName, Key: keySentinelKey(projectKey, key), ConditionExpression: 'resourceId = :id', ExpressionAttributeValues: { ':id': id } };
  }

  /**
   * Runs a transaction (applied once however often it is sent: sendTransaction). A cancellation
   * goes to `explain`, which throws the domain's reading of it, or returns what settles the write
   * instead; conflicts with concurrent transactions are retried.
   */
  private async transact<Settled = never>(
    items: NonNullable<TransactWriteCommandInput['TransactItems']>,
    explain: (reasons: { code: string; item?: Record<string, unknown> }[]) => Settled | void,
  ): Promise<Settled | undefined> {
    try {
      await sendTransaction(this.db, { TransactItems: items });
      return undefined;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) return translateEngineError(error);
      if (reasons.some((reason) => reason.code === 'TransactionConflict')) throw new RetryableRace();
      const settled = explain(reasons);
      if (settled !== undefined) return settled;
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

function toItem(projectKey: string, resource: Resource) {
  return { ...resourceKey(projectKey, resource.id), type: 'resource', ...resource };
}

/**
 * The SET and REMOVE clauses of the changed fields (`null` removes one), and a condition that holds
 * when any of them alters the item (DynamoDB compares lists and maps by value).
 */
function changeClauses(changes: ResourceChanges) {
  const clauses = { set: [] as string[], remove: [] as string[], alter: [] as string[], names: {} as Record<string, string>, values: {} as Record<string, unknown> };
  changedFields(changes).forEach(([field, value], index) => {
    const [name, placeholder] = [`#field${index}`, `:field${index}`];
    clauses.names[name] = field;
    if (value === null) {
      clauses.remove.push(name);
      clauses.alter.push(`attribute_exists(${name})`);
    } else {
      clauses.values[placeholder] = value;
      clauses.set.push(`${name} = ${placeholder}`);
      clauses.alter.push(`attribute_not_exists(${name}) OR ${name} <> ${placeholder}`);
    }
  });
  return { ...clauses, alter: clauses.alter.join(' OR ') };
}

/** Holds only while the resource's time is earlier than the write's (ModificationClock). */
const MODIFIED_BEFORE_NOW = '(attribute_not_exists(lastModifiedAt) OR lastModifiedAt < :now)';

/**
 * The `lastModifiedAt` of a write sent without reading the resource first: now, and after a
 * failure because the resource already carries a time that is not earlier (a concurrent writer,
 * another function's clock ahead), one past that time (domain/resource-changes.ts,
 * modificationTime) — so a later version never carries an earlier time.
 */
class ModificationClock {
  private notBefore: string | undefined;

  constructor(private readonly now: () => string) {}

  next(): string {
    return modificationTime(this.now(), this.notBefore);
  }

  /** The race to throw after a write found `previous` on the resource: the next attempt stamps a time after it. */
  retryAfter(previous: string): RetryableRace {
    this.notBefore = previous;
    return new RetryableRace();
  }
}
