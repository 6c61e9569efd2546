import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { createLocalGateway, type LocalStack } from '../local/stack';
import { measure, type Measurement } from './measure';

/**
 * What the local gateway adds: GET by id through HTTP, the authorizer (cached) and the handler,
 * against a raw GetItem of the same item on the same DynamoDB Local, in the same run. The same
 * request answered in-process (gateway and handler, no client socket) shows how much of the
 * difference is the second loopback HTTP hop rather than the gateway's and the handler's work.
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
  const gateway = await createLocalGateway();
  const inProcess: Measurement = await measure(
    () => gateway.answer({ method: 'GET', url: `/${project}/resource/${created.id}`, headers: { authorization: `Bearer ${token}` }, body: Buffer.alloc(0) }),
    runs,
    20,
  );
  raw.destroy();
  return {
    viaGateway,
    inProcessGatewayAndHandler: inProcess,
    rawGetItem,
    inProcessP50Ratio: Math.round((inProcess.p50Ms / rawGetItem.p50Ms) * 100) / 100,
    p50Ratio: Math.round((viaGateway.p50Ms / rawGetItem.p50Ms) * 100) / 100,
    p95Ratio: Math.round((viaGateway.p95Ms / rawGetItem.p95Ms) * 100) / 100,
  };
}
