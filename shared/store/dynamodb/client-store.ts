import { GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inWindow, type AuthFailures } from '../../auth/brute-force-brake';
import type { ApiClient, ClientStore } from '../client-store';
import { isConditionFailure, translateEngineError } from './errors';
import { allItemsOf, conditionalWrite } from './operations';
import { clientKey } from './keys';

const CLIENT_FIELDS = ['clientId', 'name', 'secretHash', 'scopes', 'createdAt', 'revokedAt'] as const;

/** The brute-force brake's counters: top-level attributes of the client item, so ADD can count. */
const FAILURES = { count: 'authFailureCount', windowStart: 'authFailureWindowStart', lastAt: 'authFailureLastAt' } as const;
/** Every attribute countFailure names (the IAM policy of the token functions allows these only). */
export const FAILURE_COUNTER_ATTRIBUTES = ['pk', 'sk', ...Object.values(FAILURES)];

/** A lost race (another failure opened a new window meanwhile) is retried with the state it returned. */
const COUNT_ATTEMPTS = 3;

/** API clients in the service's table, one item each (`CLIENT#<id>`). */
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
    const { authFailures, ...fields } = client;
    const counters = authFailures
      ? { [FAILURES.count]: authFailures.count, [FAILURES.windowStart]: authFailures.windowStart, [FAILURES.lastAt]: authFailures.lastAt }
      : {};
    await this.db
      .send(new PutCommand({ TableName: this.tableName, Item: { ...clientKey(client.clientId), type: 'client', ...fields, ...counters } }))
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

  /**
   * One UpdateItem per failure: within the window the caller saw, an atomic `ADD` (concurrent
   * failures all count) guarded by the window's start; past it, a `SET` that opens a new window,
   * guarded by the old start so that two failures cannot both open one. Only the counters are
   * touched and returned (the token functions' IAM policy allows no other attribute). A guard
   * that fails (a lost race) re-reads the item and counts against what it holds.
   */
  async countFailure(clientId: string, seen: AuthFailures | undefined, now: number): Promise<AuthFailures | undefined> {
    let state = seen;
    for (let attempt = 1; ; attempt++) {
      const sameWindow = inWindow(state, now);
      try {
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: clientKey(clientId),
            UpdateExpression: sameWindow ? 'ADD #count :one SET #lastAt = :now' : 'SET #count = :one, #windowStart = :now, #lastAt = :now',
            ConditionExpression: state
              ? 'attribute_exists(pk) AND #windowStart = :seenStart'
              : 'attribute_exists(pk) AND attribute_not_exists(#windowStart)',
            ExpressionAttributeNames: { '#count': FAILURES.count, '#windowStart': FAILURES.windowStart, '#lastAt': FAILURES.lastAt },
            ExpressionAttributeValues: { ':one': 1, ':now': now, ...(state ? { ':seenStart': state.windowStart } : {}) },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return failuresOf({ [FAILURES.windowStart]: sameWindow ? state!.windowStart : now, ...Attributes });
      } catch (error) {
        if (!isConditionFailure(error)) return translateEngineError(error);
        const current = await this.get(clientId);
        if (!current) return undefined; // no such client
        if (attempt >= COUNT_ATTEMPTS) return current.authFailures;
        state = current.authFailures;
      }
    }
  }

  async clearFailures(clientId: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: clientKey(clientId),
          UpdateExpression: 'REMOVE #count, #windowStart, #lastAt',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#count': FAILURES.count, '#windowStart': FAILURES.windowStart, '#lastAt': FAILURES.lastAt },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      return translateEngineError(error);
    }
  }
}

function failuresOf(item: Record<string, unknown>): AuthFailures | undefined {
  const [count, windowStart, lastAt] = [item[FAILURES.count], item[FAILURES.windowStart], item[FAILURES.lastAt]];
  if (typeof count !== 'number' || typeof windowStart !== 'number' || typeof lastAt !== 'number') return undefined;
  return { count, windowStart, lastAt };
}

function toClient(item: Record<string, unknown>): ApiClient {
  const client: Record<string, unknown> = {};
  for (const field of CLIENT_FIELDS) if (item[field] !== undefined) client[field] = item[field];
  const authFailures = failuresOf(item);
  if (authFailures) client.authFailures = authFailures;
  return client as unknown as ApiClient;
}
