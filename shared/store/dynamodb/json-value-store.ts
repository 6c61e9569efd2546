import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JsonValue } from '../../domain/extensions/binding';
import type { JsonValueStore } from '../json-value-store';
import { translateEngineError } from './errors';
import { projectPartition } from './keys';

/**
 * Each project's JSON value (PUT /{projectKey}/resource/json-serializable-primitive-type), one item:
 *
 *   pk = PROJECT#<projectKey>   sk = JSON_VALUE   json = the value as a JSON string
 *
 * A string attribute keeps every JSON value intact: DynamoDB's own types would lose the
 * difference between null and absent, and numbers beyond its range.
 */
export const JSON_VALUE_SORT_KEY = 'JSON_VALUE';

export const jsonValueKey = (projectKey: string) => ({ pk: projectPartition(projectKey), sk: JSON_VALUE_SORT_KEY });

export class DynamoDbJsonValueStore implements JsonValueStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  async get(projectKey: string): Promise<{ found: true; value: JsonValue } | { found: false }> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: jsonValueKey(projectKey), ConsistentRead: true }))
      .catch(translateEngineError);
    return Item ? { found: true, value: JSON.parse(String(Item.json)) as JsonValue } : { found: false };
  }

  async put(projectKey: string, value: JsonValue): Promise<void> {
    await this.db
      .send(new PutCommand({ TableName: this.tableName, Item: { ...jsonValueKey(projectKey), type: 'json-value', json: JSON.stringify(value), lastModifiedAt: this.now() } }))
      .catch(translateEngineError);
  }
}
