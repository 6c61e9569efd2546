import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DuplicateKeyError, VersionConflictError } from '../../domain/errors';
import { sequenceKey } from '../../domain/subscriptions/notification';
import { Subscription, type StoredSubscription } from '../../domain/subscriptions/subscription';
import type { ParkedNotification, SubscriptionStore } from '../subscription-store';
import { cancellationReasons, translateEngineError } from './errors';
import { deadLetterKey, deadLettersPartition, PARKED_PARTITION, parkedKey, projectPartition, SUBSCRIPTION_PREFIX, subscriptionKey, subscriptionKeySentinelKey } from './keys';
import { allItemsOf, itemsOf, sendTransaction } from './operations';

type Item = Record<string, unknown>;

/** Subscriptions and their delivery state in the service's table (keys.ts); reads strongly consistent. */
export class DynamoDbSubscriptionStore implements SubscriptionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(projectKey: string, { subscription, secret }: StoredSubscription): Promise<void> {
    const { key, id } = subscription;
    const put = (Item: Item) => ({ Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
    const sentinel = key === undefined ? [] : [put({ ...subscriptionKeySentinelKey(projectKey, key), type: 'subscription-key', subscriptionId: id })];
    try {
      await sendTransaction(this.db, { TransactItems: [put({ ...subscriptionKey(projectKey, id), type: 'subscription', subscription: JSON.stringify(subscription), secret }), ...sentinel] });
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
    return (await allItemsOf(this.pages(projectPartition(projectKey), 'begins_with(sk, :sk)', SUBSCRIPTION_PREFIX))).map(toStored);
  }

  async delete(projectKey: string, { id, key }: Subscription, expectedVersion: number): Promise<void> {
    const remove = (Key: Item) => ({ Delete: { TableName: this.tableName, Key, ConditionExpression: 'attribute_exists(pk)' } });
    try {
      await sendTransaction(this.db, { TransactItems: [remove(subscriptionKey(projectKey, id)), ...(key === undefined ? [] : [remove(subscriptionKeySentinelKey(projectKey, key))])] });
    } catch (error) {
      // Deleted meanwhile (subscriptions have no updates: their version never moves).
      if (cancellationReasons(error)) throw new VersionConflictError(expectedVersion, undefined);
      translateEngineError(error);
    }
  }

  async hasParked(subscriptionId: string): Promise<boolean> {
    return (await this.first('begins_with(sk, :sk)', `${subscriptionId}#`)) !== undefined;
  }

  async park(parked: ParkedNotification): Promise<void> {
    await this.put({ ...parkedKey(parked.subscriptionId, sequenceKey(parked.sequenceNumber)), ...toItem(parked) });
  }

  /** After a subscription's range: `<id>$` sorts after every `<id>#…`. */
  async nextParked(afterSubscriptionId = ''): Promise<ParkedNotification | undefined> {
    return this.first('sk > :sk', `${afterSubscriptionId}$`);
  }

  async *parked(subscriptionId: string): AsyncIterable<ParkedNotification> {
    for await (const item of itemsOf(this.pages(PARKED_PARTITION, 'begins_with(sk, :sk)', `${subscriptionId}#`))) yield toParked(item);
  }

  async unpark(parked: ParkedNotification): Promise<void> {
    await this.deleteItem(parkedKey(parked.subscriptionId, sequenceKey(parked.sequenceNumber)));
  }

  /** Written before the parked item goes: a crash between the two leaves both (delivered twice at worst), never neither. */
  async deadLetter(parked: ParkedNotification): Promise<void> {
    await this.put({ ...deadLetterKey(parked.projectKey, parked.subscriptionId, sequenceKey(parked.sequenceNumber)), ...toItem(parked) });
    await this.unpark(parked);
  }

  async deadLetters(projectKey: string): Promise<ParkedNotification[]> {
    return (await allItemsOf(this.pages(deadLettersPartition(projectKey), 'sk > :sk', ' '))).map(toParked);
  }

  async replay(dead: ParkedNotification, now: string): Promise<void> {
    await this.park({ ...dead, attempts: 0, parkedAt: now, nextAttemptAt: now });
    await this.deleteItem(deadLetterKey(dead.projectKey, dead.subscriptionId, sequenceKey(dead.sequenceNumber)));
  }

  /** The pages of a Query of one partition, its sort keys held to `condition` on `:sk`. */
  private pages(pk: string, condition: string, sk: string, Limit?: number) {
    return (ExclusiveStartKey: Item | undefined) =>
      this.db.send(
        new QueryCommand({ TableName: this.tableName, KeyConditionExpression: `pk = :pk AND ${condition}`, ExpressionAttributeValues: { ':pk': pk, ':sk': sk }, ConsistentRead: true, Limit, ExclusiveStartKey }),
      );
  }

  private async first(condition: string, sk: string): Promise<ParkedNotification | undefined> {
    const { Items } = await this.pages(PARKED_PARTITION, condition, sk, 1)(undefined).catch(translateEngineError);
    return Items?.[0] && toParked(Items[0]);
  }

  private async getItem(Key: Item): Promise<Item | undefined> {
    return (await this.db.send(new GetCommand({ TableName: this.tableName, Key, ConsistentRead: true })).catch(translateEngineError)).Item;
  }

  private async put(Item: Item): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item })).catch(translateEngineError);
  }

  private async deleteItem(Key: Item): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key })).catch(translateEngineError);
  }
}

/** The subscription is kept as JSON text, validated on the way out (a hand-edited item fails loudly). */
const toStored = (item: Item): StoredSubscription => ({ subscription: Subscription.parse(JSON.parse(String(item.subscription))), secret: String(item.secret) });

const toItem = ({ notification, ...parked }: ParkedNotification): Item => ({ type: 'parked-notification', ...parked, notification: JSON.stringify(notification) });

const toParked = ({ subscriptionId, projectKey, sequenceNumber, notification, attempts, parkedAt, nextAttemptAt, lastError }: Item): ParkedNotification => ({
  ...({ subscriptionId, projectKey, sequenceNumber, attempts, parkedAt, nextAttemptAt } as Omit<ParkedNotification, 'notification' | 'lastError'>),
  notification: JSON.parse(String(notification)),
  ...(lastError === undefined ? {} : { lastError: String(lastError) }),
});
