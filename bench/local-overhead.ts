import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { LocalStack } from '../local/stack';
import { measure, type Measurement } from './measure';

/**
 * What the local gateway adds: GET by id through HTTP, the authorizer (cached) and the handler,
 * against a raw GetItem of the same item on the same DynamoDB Local, in the same run.
 */
export async function localOverhead(stack: LocalStack, token: string, project: string) {
  const created = await fetch(`${stack.url}/${project}/resource`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['overhead'] } }),
  }).then((response) => response.json() as Promise<{ id: string }>);

  const raw = new DynamoDBClient({ endpoint: stack.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const getItem = new GetItemCommand({
    TableName: stack.tableName,
    Key: { pk: { S: `PROJECT#${project}` }, sk: { S: `RESOURCE#${created.id}` } },
    ConsistentRead: true,
  });
  const runs = 200;
  const viaGateway: Measurement = await measure(async () => {
    const response = await fetch(`${stack.url}/${project}/resource/${created.id}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
  }, runs, 20);
  const rawGetItem: Measurement = await measure(() => raw.send(getItem), runs, 20);
  raw.destroy();
  return {
    viaGateway,
    rawGetItem,
    p50Ratio: Math.round((viaGateway.p50Ms / rawGetItem.p50Ms) * 100) / 100,
    p95Ratio: Math.round((viaGateway.p95Ms / rawGetItem.p95Ms) * 100) / 100,
  };
}
