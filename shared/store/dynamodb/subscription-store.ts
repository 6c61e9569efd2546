import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DuplicateKeyError, VersionConflictError } from '../../domain/errors';
import { sequenceKey } from '../../domain/subscriptions/notification';
import { Subscription, type StoredSubscription } from '../../domain/subscriptions/subscription';
import type { ParkedNotification, SubscriptionStore } from '../subscription-store';
import { cancellationReasons, translateEngineError } from './errors';
import {
  deadLetterKey,
  deadLettersPartition,
  PARKED_PARTITION,
  parkedKey,
  projectPartition,
  SUBSCRIPTION_PREFIX,
  subscriptionKey,
  subscriptionKeySentinelKey,
} from './keys';
import { allItemsOf, itemsOf, sendTransaction } from './operations';

type Item = Record<string, unknown>;

/** Subscriptions and their delivery state in the service's table (keys.ts); reads strongly consistent. */
export class DynamoDbSubscriptionStore implements SubscriptionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(projectKey: string, { subscription, secret }: StoredSubscription): Promise<void> {
    const { key } = subscription;
    const put = (Item: Item) => ({ Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
    try {
      await sendTransaction(this.db, {
        TransactItems: [
          put({ ...subscriptionKey(projectKey, subscription.id), type: 'subscription', subscription: JSON.stringify(subscription), secret }),
          ...(key === undefined ? [] : [put({ ...subscriptionKeySentinelKey(projectKey, key), type: 'subscription-key', subscriptionId: subscription.id })]),
        ],
      });
    } catch (error) {
      if (key !== undefined && cancellationReasons(error)?.[1]?.code === 'ConditionalCheckFailed') throw new DuplicateKeyError(key);
      translateEngineError(error);
    }
  }

  async get(projectKey: string, id: string): Promise<StoredSubscription | undefined> {
    const item = await this.getItem(subscriptionKey(projectKey, id));
    return item && toStored(item);
  }

  async getByKey(projectKey: string, key: string): Promise<StoredSubscription | undefined> {
    const sentinel = await this.getItem(subscriptionKeySentinelKey(projectKey, key));
    return sentinel && this.get(projectKey, String(sentinel.subscriptionId));
  }

  async list(projectKey: string): Promise<StoredSubscription[]> {
    const items = await allItemsOf((ExclusiveStartKey) =>
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':prefix': SUBSCRIPTION_PREFIX },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      ),
    );
    return items.map(toStored);
  }

  async delete(projectKey: string, subscription: Subscription, expectedVersion: number): Promise<void> {
    try {
      await sendTransaction(this.db, {
        TransactItems: [
          {
            Delete: {
              TableName: this.tableName,
              Key: subscriptionKey(projectKey, subscription.id),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          ...(subscription.key === undefined ? [] : [{ Delete: { TableName: this.tableName, Key: subscriptionKeySentinelKey(projectKey, subscription.key) } }]),
        ],
      });
    } catch (error) {
      // Deleted meanwhile (subscriptions have no updates: their version never moves).
      if (cancellationReasons(error)) throw new VersionConflictError(expectedVersion, undefined);
      translateEngineError(error);
    }
  }

  async hasParked(subscriptionId: string): Promise<boolean> {
    return (await this.nextParked(undefined, subscriptionId)) !== undefined;
  }

  async park(parked: ParkedNotification): Promise<void> {
    await this.put({ ...parkedKey(parked.subscriptionId, sequenceKey(parked.sequenceNumber)), ...toItem(parked) });
  }

  /** One item: after a subscription's range (`<id>$` sorts after every `<id>#…`), or the first of one. */
  async nextParked(afterSubscriptionId?: string, ofSubscriptionId?: string): Promise<ParkedNotification | undefined> {
    const { Items } = await this.db
      .send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: ofSubscriptionId === undefined ? 'pk = :pk AND sk > :after' : 'pk = :pk AND begins_with(sk, :after)',
          ExpressionAttributeValues: { ':pk': PARKED_PARTITION, ':after': ofSubscriptionId === undefined ? `${afterSubscriptionId ?? ''}$` : `${ofSubscriptionId}#` },
          ConsistentRead: true,
          Limit: 1,
        }),
      )
      .catch(translateEngineError);
    return Items?.[0] && toParked(Items[0]);
  }

  async *parked(subscriptionId: string): AsyncIterable<ParkedNotification> {
    const items = itemsOf((ExclusiveStartKey) =>
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': PARKED_PARTITION, ':prefix': `${subscriptionId}#` },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      ),
    );
    for await (const item of items) yield toParked(item);
  }

  async unpark(parked: ParkedNotification): Promise<void> {
    await this.db
      .send(new DeleteCommand({ TableName: this.tableName, Key: parkedKey(parked.subscriptionId, sequenceKey(parked.sequenceNumber)) }))
      .catch(translateEngineError);
  }

  /** Written before the parked item goes: a crash between the two leaves both (delivered twice at worst), never neither. */
  async deadLetter(parked: ParkedNotification): Promise<void> {
    await this.put({ ...deadLetterKey(parked.projectKey, parked.subscriptionId, sequenceKey(parked.sequenceNumber)), ...toItem(parked) });
    await this.unpark(parked);
  }

  async deadLetters(projectKey: string): Promise<ParkedNotification[]> {
    const items = await allItemsOf((ExclusiveStartKey) =>
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': deadLettersPartition(projectKey) },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      ),
    );
    return items.map(toParked);
  }

  async replay(dead: ParkedNotification, now: string): Promise<void> {
    await this.park({ ...dead, attempts: 0, parkedAt: now, nextAttemptAt: now });
    await this.db
      .send(new DeleteCommand({ TableName: this.tableName, Key: deadLetterKey(dead.projectKey, dead.subscriptionId, sequenceKey(dead.sequenceNumber)) }))
      .catch(translateEngineError);
  }

  private async getItem(Key: Item): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key, ConsistentRead: true })).catch(translateEngineError);
    return Item;
  }

  private async put(Item: Item): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item })).catch(translateEngineError);
  }
}

/** The subscription is kept as JSON text, validated on the way out (a hand-edited item fails loudly). */
const toStored = (item: Item): StoredSubscription => ({ subscription: Subscription.parse(JSON.parse(String(item.subscription))), secret: String(item.secret) });

const toItem = ({ notification, ...parked }: ParkedNotification): Item => ({ type: 'parked-notification', ...parked, notification: JSON.stringify(notification) });

function toParked(item: Item): ParkedNotification {
  return {
    subscriptionId: String(item.subscriptionId),
    projectKey: String(item.projectKey),
    sequenceNumber: String(item.sequenceNumber),
    notification: JSON.parse(String(item.notification)),
    attempts: Number(item.attempts),
    parkedAt: String(item.parkedAt),
    nextAttemptAt: String(item.nextAttemptAt),
    ...(item.lastError === undefined ? {} : { lastError: String(item.lastError) }),
  };
}
