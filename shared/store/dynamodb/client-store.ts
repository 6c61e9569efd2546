import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AttemptWindow } from '../../domain/auth/brute-force-brake';
import type { ApiClient, ClientStore } from '../client-store';
import { isConditionFailure, translateEngineError } from './errors';
import { allItemsOf, conditionalWrite } from './operations';
import { ATTEMPT_COUNTER_PREFIX, attemptCounterKey, clientKey } from './keys';
import { TABLE_TTL_ATTRIBUTE } from './table-schema';

const CLIENT_FIELDS = ['clientId', 'name', 'secretHash', 'scopes', 'createdAt', 'revokedAt'] as const;

/**
 * The brute-force brake's counter items: the ids of the failures counted (a string set, so that a
 * failure sent twice is counted once), and the table's TTL attribute (they go some time after
 * their window). Counters of the numeric `attempts` kept before are ignored and expire.
 */
const ATTEMPTS = { ids: 'attemptIds', expiresAt: TABLE_TTL_ATTRIBUTE } as const;
/** Every attribute countFailure names (the IAM policy of the token functions allows these only). */
export const ATTEMPT_COUNTER_ATTRIBUTES = ['pk', 'sk', ...Object.values(ATTEMPTS)];
/** Counters stay a little after their window: the window's last second must still find its counter. */
const COUNTER_GRACE_SECONDS = 60;

/** API clients in the service's table, one item each (`CLIENT#<id>`), and their brake counters in the same partition. */
export class DynamoDbClientStore implements ClientStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: string): Promise<ApiClient | undefined> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: clientKey(clientId), ConsistentRead: true }))
      .catch(translateEngineError);
    return Item ? toClient(Item) : undefined;
  }

  async put(client: ApiClient): Promise<void> {
    await this.db
      .send(new PutCommand({ TableName: this.tableName, Item: { ...clientKey(client.clientId), type: 'client', ...client } }))
      .catch(translateEngineError);
  }

  /** Clients are few and listed only by operators: a filtered scan is enough. */
  async list(): Promise<ApiClient[]> {
    const items = await allItemsOf((ExclusiveStartKey) =>
      this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: '#type = :client',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':client': 'client' },
          ExclusiveStartKey,
        }),
      ),
    );
    return items.map(toClient);
  }

  async revoke(clientId: string, at: string): Promise<boolean> {
    return conditionalWrite(
      async () => {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: clientKey(clientId),
            UpdateExpression: 'SET revokedAt = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at },
          }),
        );
        return true;
      },
      () => false,
    );
  }

  async failuresIn(clientId: string, source: string, window: AttemptWindow): Promise<number> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: attemptCounterKey(clientId, window.index, source), ConsistentRead: true }))
      .catch(translateEngineError);
    return (Item?.[ATTEMPTS.ids] as Set<string> | undefined)?.size ?? 0;
  }

  /**
   * One conditional UpdateItem on the counter of this client, source and window (its own item in
   * the client's partition, removed by TTL after the window): the failure's id joins the set only
   * while fewer than the limit are counted, so parallel failures can never get past it. Adding to a
   * set is idempotent: the SDK's resend after a lost answer counts nothing twice, and finds its id
   * already there (`contains`), so it is not taken for one beyond the limit either. Only the
   * counter's attributes are named (the token functions' IAM policy allows no other attribute).
   */
  async countFailure(clientId: string, source: string, window: AttemptWindow, attemptId: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: attemptCounterKey(clientId, window.index, source),
          UpdateExpression: 'ADD #ids :ids SET #expiresAt = :expiresAt',
          ConditionExpression: 'attribute_not_exists(#ids) OR size(#ids) < :max OR contains(#ids, :id)',
          ExpressionAttributeNames: { '#ids': ATTEMPTS.ids, '#expiresAt': ATTEMPTS.expiresAt },
          ExpressionAttributeValues: { ':ids': new Set([attemptId]), ':id': attemptId, ':max': window.maxAttempts, ':expiresAt': window.endsAt + COUNTER_GRACE_SECONDS },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      return translateEngineError(error);
    }
  }

  /** Deletes every counter of the client (a Query of its partition, then one DeleteItem each). */
  async clearAttempts(clientId: string): Promise<boolean> {
    if (!(await this.get(clientId))) return false;
    const { pk } = clientKey(clientId);
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db
        .send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :counters)',
            ExpressionAttributeValues: { ':pk': pk, ':counters': ATTEMPT_COUNTER_PREFIX },
            ProjectionExpression: 'pk, sk',
            ExclusiveStartKey,
          }),
        )
        .catch(translateEngineError);
      for (const item of page.Items ?? []) {
        await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: item.pk, sk: item.sk } })).catch(translateEngineError);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return true;
  }
}

function toClient(item: Record<string, unknown>): ApiClient {
  const client: Record<string, unknown> = {};
  for (const field of CLIENT_FIELDS) if (item[field] !== undefined) client[field] = item[field];
  return client as unknown as ApiClient;
}
