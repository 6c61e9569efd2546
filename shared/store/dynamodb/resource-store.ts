import { randomUUID } from 'node:crypto';
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { DuplicateKeyError, ResourceNotFoundError, VersionConflictError } from '../../domain/errors';
import type { Resource } from '../../domain/resource';
import { applyChanges, changesAlter, type ResourceChanges } from '../../domain/update-actions';
import type { KeyedDraft, NewResource, ResourceStore } from '../resource-store';
import { cancellationReasons, isConditionFailure, itemOfConditionFailure, RetryableRace, translateEngineError } from './errors';
import { withRetries } from './retries';
import { keySentinelKey, projectPartition, RESOURCE_PREFIX, RESOURCE_RANGE_END, resourceKey } from './keys';


const RESOURCE_FIELDS = ['id', 'key', 'version', 'createdAt', 'lastModifiedAt', 'objectTypeProperty', 'someProperty'] as const;

/**
 * A sort key is at most 1024 bytes, and a lower bound from a predicate (`id > "…"`) may be longer:
 * its first 200 characters (at most 800 bytes) start the range, a lower bound still.
 */
const keySizedBound = (fromId = '') => [...fromId].slice(0, 200).join('');

/**
 * Resources in one DynamoDB table (layout in keys.ts). Every guarantee is DynamoDB's own:
 * versions are checked by conditional writes (the failed condition returns the current item, so a
 * 409 knows `currentVersion` without a second read), keys are unique through sentinel items
 * written in the same transaction as the resource, and reads are strongly consistent.
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
    try {
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
    } catch (error) {
      if (!isConditionFailure(error)) return translateEngineError(error);
      const current = itemOfConditionFailure(error);
      const resource = checkVersion(current && toResource(current), id, expectedVersion);
      return resource; // the condition failed only because someProperty already had that value
    }
  }

  async delete(projectKey: string, id: string, expectedVersion?: number): Promise<Resource> {
    return withRetries(async () => {
      try {
        // Without a key there is nothing else to free: one conditional delete does it.
        const { Attributes } = await this.db.send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: resourceKey(projectKey, id),
            ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(#key)${expectedVersion === undefined ? '' : ' AND version = :expected'}`,
            ExpressionAttributeNames: { '#key': 'key' },
            ...(expectedVersion === undefined ? {} : { ExpressionAttributeValues: { ':expected': expectedVersion } }),
            ReturnValues: 'ALL_OLD',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return toResource(Attributes!);
      } catch (error) {
        if (!isConditionFailure(error)) return translateEngineError(error);
        const current = itemOfConditionFailure(error);
        const resource = checkVersion(current && toResource(current), id, expectedVersion);
        await this.deleteWithKey(projectKey, resource);
        return resource;
      }
    });
  }

  async *scan(projectKey: string, options: { fromId?: string } = {}): AsyncIterable<Resource> {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db
        .send(
          new QueryCommand({
            TableName: this.tableName,
            // Resource items only, from the first id wanted: the range ends where the prefix does.
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :end',
            ExpressionAttributeValues: {
              ':pk': projectPartition(projectKey),
              ':from': `${RESOURCE_PREFIX}${keySizedBound(options.fromId)}`,
              ':end': RESOURCE_RANGE_END,
            },
            ProjectionExpression: RESOURCE_FIELDS.map((_, index) => `#f${index}`).join(', '),
            ExpressionAttributeNames: Object.fromEntries(RESOURCE_FIELDS.map((field, index) => [`#f${index}`, field])),
            ConsistentRead: true,
            ExclusiveStartKey,
          }),
        )
        .catch(translateEngineError);
      for (const item of page.Items ?? []) yield toResource(item);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }

  private async createOnce(projectKey: string, draft: NewResource): Promise<Resource> {
    const now = this.now();
    const resource: Resource = {
      id: randomUUID(),
      ...(draft.key === undefined ? {} : { key: draft.key }),
      version: 1,
      createdAt: now,
      lastModifiedAt: now,
      objectTypeProperty: draft.objectTypeProperty,
    };
    const put = { TableName: this.tableName, Item: toItem(projectKey, resource), ConditionExpression: 'attribute_not_exists(pk)' };

    if (draft.key === undefined) {
      await this.db.send(new PutCommand(put)).catch(translateEngineError);
      return resource;
    }
    await this.transact([{ Put: put }, { Put: this.sentinelPut(projectKey, draft.key, resource.id) }], (reasons) => {
      const holder = reasons[1];
      if (holder?.code === 'ConditionalCheckFailed') throw new KeyHeldError(draft.key!, holder.item?.resourceId as string);
    });
    return resource;
  }

  /** Replaces the content of the resource that holds `draft.key`, one version up. */
  private async replaceContent(projectKey: string, id: string, draft: KeyedDraft): Promise<Resource> {
    try {
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
    } catch (error) {
      if (!isConditionFailure(error)) return translateEngineError(error);
      const current = itemOfConditionFailure(error);
      // The key moved to another resource (or was freed) since we looked it up: look again.
      if (current?.key !== draft.key) throw new RetryableRace();
      throw new VersionConflictError(draft.expectedVersion, current.version as number);
    }
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

  /** Deletes a keyed resource and frees its key in one transaction. */
  private async deleteWithKey(projectKey: string, resource: Resource): Promise<void> {
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
        { Delete: this.sentinelDelete(projectKey, resource.key!, resource.id) },
      ],
      () => {
        throw new RetryableRace(); // changed meanwhile: start over and check again
      },
    );
  }

  private sentinelPut(projectKey: string, key: string, id: string) {
    return {
      TableName: this.tableName,
      Item: { ...keySentinelKey(projectKey, key), type: 'resource-key', resourceId: id },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
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

function toItem(projectKey: string, resource: Resource) {
  return { ...resourceKey(projectKey, resource.id), type: 'resource', ...resource };
}

function toResource(item: Record<string, unknown>): Resource {
  const resource: Record<string, unknown> = {};
  for (const field of RESOURCE_FIELDS) if (item[field] !== undefined) resource[field] = item[field];
  return resource as Resource;
}
