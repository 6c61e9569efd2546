import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ExtensionAction } from '../../domain/extensions/actions';
import { ExtensionBinding, type ExtensionTarget } from '../../domain/extensions/binding';
import { unknownKind } from '../../domain/unknown-kind';
import type { ExtensionStore } from '../extension-store';
import { translateEngineError } from './errors';
import { allItemsOf, conditionalWrite } from './operations';
import { projectPartition } from './keys';

/**
 * Extension bindings in the service's table, one item per project and action:
 *
 *   pk = PROJECT#<projectKey>   sk = EXTENSION#<action>   type = extension-binding
 *
 * Outside the `RESOURCE#` range, so resource queries never read them. A static document is kept
 * as a JSON string, so every JSON value (null, "", nested empties) survives DynamoDB unchanged.
 */
export const EXTENSION_PREFIX = 'EXTENSION#';
const ITEM_TYPE = 'extension-binding';

export const extensionKey = (projectKey: string, action: string) => ({
  pk: projectPartition(projectKey),
  sk: `${EXTENSION_PREFIX}${action}`,
});

export class DynamoDbExtensionStore implements ExtensionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(projectKey: string, action: ExtensionAction): Promise<ExtensionBinding | undefined> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: extensionKey(projectKey, action), ConsistentRead: true }))
      .catch(translateEngineError);
    return Item ? toBinding(Item) : undefined;
  }

  async put(binding: ExtensionBinding): Promise<void> {
    const valid = ExtensionBinding.parse(binding);
    await this.db
      .send(new PutCommand({ TableName: this.tableName, Item: toItem(valid) }))
      .catch(translateEngineError);
  }

  async delete(projectKey: string, action: ExtensionAction): Promise<boolean> {
    return conditionalWrite(
      async () => {
        await this.db.send(
          new DeleteCommand({ TableName: this.tableName, Key: extensionKey(projectKey, action), ConditionExpression: 'attribute_exists(pk)' }),
        );
        return true;
      },
      () => false,
    );
  }

  async list(projectKey?: string): Promise<ExtensionBinding[]> {
    // One project: its item collection's EXTENSION# range. Every project: bindings are few and
    // listed only by operators, so a filtered scan is enough.
    const items = await allItemsOf((ExclusiveStartKey) => {
      const command = projectKey
        ? new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': projectPartition(projectKey), ':prefix': EXTENSION_PREFIX },
            ConsistentRead: true,
            ExclusiveStartKey,
          })
        : new ScanCommand({
            TableName: this.tableName,
            FilterExpression: '#type = :type',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': ITEM_TYPE },
            ConsistentRead: true,
            ExclusiveStartKey,
          });
      return this.db.send(command);
    });
    return items.map(toBinding).sort((a, b) => a.projectKey.localeCompare(b.projectKey) || a.action.localeCompare(b.action));
  }
}

function toItem(binding: ExtensionBinding): Record<string, unknown> {
  const { target } = binding;
  const common = {
    ...extensionKey(binding.projectKey, binding.action),
    type: ITEM_TYPE,
    projectKey: binding.projectKey,
    action: binding.action,
    kind: target.kind,
    createdAt: binding.createdAt,
  };
  switch (target.kind) {
    case 'http':
      return { ...common, url: target.url, secret: target.secret };
    case 'lambda':
      return { ...common, functionName: target.functionName, secret: target.secret };
    case 'static':
      return { ...common, statusCode: target.statusCode, document: JSON.stringify(target.document) };
    default:
      return unknownKind(target, 'extension target kind');
  }
}

/** Items are validated on the way out too: a hand-edited item fails loudly, not half-way through a call. */
function toBinding(item: Record<string, unknown>): ExtensionBinding {
  let target: unknown;
  switch (item.kind) {
    case 'http':
      target = { kind: 'http', url: item.url, secret: item.secret };
      break;
    case 'lambda':
      target = { kind: 'lambda', functionName: item.functionName, secret: item.secret };
      break;
    case 'static':
      target = { kind: 'static', statusCode: Number(item.statusCode), document: JSON.parse(String(item.document)) };
      break;
    default:
      target = { kind: item.kind };
  }
  return ExtensionBinding.parse({ projectKey: item.projectKey, action: item.action, target: target as ExtensionTarget, createdAt: item.createdAt });
}
