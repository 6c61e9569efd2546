import { GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApiClient, ClientStore } from '../client-store';
import { isConditionFailure, translateEngineError } from './errors';
import { clientKey } from './keys';

const CLIENT_FIELDS = ['clientId', 'name', 'secretHash', 'scopes', 'createdAt', 'revokedAt'] as const;

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
    await this.db
      .send(new PutCommand({ TableName: this.tableName, Item: { ...clientKey(client.clientId), type: 'client', ...client } }))
      .catch(translateEngineError);
  }

  /** Clients are few and listed only by operators: a filtered scan is enough. */
  async list(): Promise<ApiClient[]> {
    const clients: ApiClient[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db
        .send(
          new ScanCommand({
            TableName: this.tableName,
            FilterExpression: '#type = :client',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':client': 'client' },
            ExclusiveStartKey,
          }),
        )
        .catch(translateEngineError);
      clients.push(...(page.Items ?? []).map(toClient));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return clients;
  }

  async revoke(clientId: string, at: string): Promise<boolean> {
    try {
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
    } catch (error) {
      if (isConditionFailure(error)) return false;
      return translateEngineError(error);
    }
  }
}

function toClient(item: Record<string, unknown>): ApiClient {
  const client: Record<string, unknown> = {};
  for (const field of CLIENT_FIELDS) if (item[field] !== undefined) client[field] = item[field];
  return client as unknown as ApiClient;
}
