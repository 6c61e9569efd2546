import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functions } from '../../functions/endpoints';
import { asFunction } from '../../local/table-access';
import { attemptCounterKey, clientKey, projectPartition, resourceKey } from '../../shared/store/dynamodb/keys';
import { DynamoDbClientStore } from '../../shared/store/dynamodb/client-store';
import { LAST_MODIFIED_INDEX_NAME } from '../../shared/store/dynamodb/table-schema';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * Local mode refuses a table call that the function's declared permissions would not be granted in
 * AWS (DynamoDB Local checks no IAM), so that a missing or excess grant fails the tests and not only AWS.
 */
let gateway: InProcessGateway;
let table: string;
const declared = (name: string) => functions.find((declaration) => declaration.name === name)!;
const dynamoDb = async () => (await import('../../shared/composition-root')).dynamoDb();
const refusal = (work: () => Promise<unknown>) => work().then(() => 'allowed', (error: Error) => error.name);

beforeAll(async () => {
  gateway = await startInProcessGateway();
  table = process.env.TABLE_NAME!;
});

afterAll(() => gateway?.stop());

describe('as IAM would, by the function running (local/table-access.ts)', () => {
  it('a reading function reads its partitions and writes none', async () => {
    const client = await dynamoDb();
    const get = declared('get-resource');
    expect(await asFunction(get, () => refusal(() => client.send(new GetCommand({ TableName: table, Key: resourceKey('demo', 'none') }))))).toBe('allowed');
    expect(await asFunction(get, () => refusal(() => client.send(new PutCommand({ TableName: table, Item: { ...resourceKey('demo', 'x'), type: 'junk' } }))))).toBe(
      'AccessDeniedException',
    );
    // Another kind of partition: client items.
    expect(await asFunction(get, () => refusal(() => client.send(new GetCommand({ TableName: table, Key: { pk: clientKey('c').pk, sk: 'CLIENT' } }))))).toBe(
      'AccessDeniedException',
    );
    expect(await asFunction(get, () => refusal(() => client.send(new ScanCommand({ TableName: table, Limit: 1 }))))).toBe('AccessDeniedException');
  });

  it('the query, HEAD and search functions read their project partitions and write nothing', async () => {
    const client = await dynamoDb();
    const item = { ...resourceKey('demo', 'x'), type: 'junk' };
    for (const name of ['query-resources', 'query-sorted-resources', 'check-resources-exist', 'search-resources']) {
      const reader = declared(name);
      expect(await asFunction(reader, () => refusal(() => client.send(new PutCommand({ TableName: table, Item: item })))), name).toBe('AccessDeniedException');
      expect(
        await asFunction(reader, () =>
          refusal(() =>
            client.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': projectPartition('demo') }, Limit: 1 })),
          ),
        ),
        name,
      ).toBe('allowed');
    }
  });

  it("an index is reached only by grants that include the deployment's read indexes", async () => {
    const client = await dynamoDb();
    const query = declared('query-sorted-resources');
    const onIndex = (IndexName: string) =>
      new QueryCommand({ TableName: table, IndexName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': projectPartition('demo') }, Limit: 1 });
    expect(await asFunction(query, () => refusal(() => client.send(onIndex(LAST_MODIFIED_INDEX_NAME))))).toBe('allowed');
    expect(await asFunction(query, () => refusal(() => client.send(onIndex('anotherIndex'))))).toBe('AccessDeniedException');
  });

  it('each part of a transaction is authorized on its own; the token functions touch client partitions only', async () => {
    const client = await dynamoDb();
    const create = declared('create-resource');
    const parts = (pk: string) => [{ Put: { TableName: table, Item: { pk, sk: 'TABLE-GRANTS-TEST', type: 'test' } } }];
    expect(await asFunction(create, () => refusal(() => client.send(new TransactWriteCommand({ TransactItems: parts(projectPartition('demo')) }))))).toBe('allowed');
    expect(await asFunction(create, () => refusal(() => client.send(new TransactWriteCommand({ TransactItems: parts(clientKey('c').pk) }))))).toBe(
      'AccessDeniedException',
    );
    // No store sends a ConditionCheck part, so no function is granted dynamodb:ConditionCheckItem.
    const check = [{ ConditionCheck: { TableName: table, Key: { pk: projectPartition('demo'), sk: 'none' }, ConditionExpression: 'attribute_not_exists(pk)' } }];
    expect(await asFunction(create, () => refusal(() => client.send(new TransactWriteCommand({ TransactItems: check }))))).toBe('AccessDeniedException');
    const token = declared('issue-token');
    const count = new UpdateCommand({ TableName: table, Key: resourceKey('demo', 'x'), UpdateExpression: 'SET attempts = :one', ExpressionAttributeValues: { ':one': 1 } });
    expect(await asFunction(token, () => refusal(() => client.send(count)))).toBe('AccessDeniedException');
  });

  it("the token functions' counters: those attributes only, and no values returned (dynamodb:Attributes, dynamodb:ReturnValues)", async () => {
    const client = await dynamoDb();
    const token = declared('issue-token');
    // The brake's own calls are granted.
    const store = new DynamoDbClientStore(client, table);
    const window = { index: 1, maxAttempts: 10, endsAt: Math.floor(Date.now() / 1000) + 60 };
    expect(await asFunction(token, () => refusal(() => store.countFailure('grants-test', 'source', window, 'attempt')))).toBe('allowed');
    expect(await asFunction(token, () => refusal(() => store.failuresIn('grants-test', 'source', window)))).toBe('allowed');
    // Any other attribute of a client item is not: IAM refuses a token function granting itself scopes.
    const counter = attemptCounterKey('grants-test', 1, 'source');
    const scopes = new UpdateCommand({ TableName: table, Key: clientKey('grants-test'), UpdateExpression: 'SET scopes = :all', ExpressionAttributeValues: { ':all': ['manage_project:demo'] } });
    expect(await asFunction(token, () => refusal(() => client.send(scopes)))).toBe('AccessDeniedException');
    const named = new UpdateCommand({
      TableName: table,
      Key: counter,
      UpdateExpression: 'SET #attemptIds = :one, #revokedAt = :now',
      ExpressionAttributeNames: { '#attemptIds': 'attemptIds', '#revokedAt': 'revokedAt' },
      ExpressionAttributeValues: { ':one': 1, ':now': 'now' },
    });
    expect(await asFunction(token, () => refusal(() => client.send(named)))).toBe('AccessDeniedException');
    // Values returned other than none.
    const returning = new UpdateCommand({ TableName: table, Key: counter, UpdateExpression: 'ADD attemptIds :ids', ExpressionAttributeValues: { ':ids': new Set(['x']) }, ReturnValues: 'ALL_NEW' });
    expect(await asFunction(token, () => refusal(() => client.send(returning)))).toBe('AccessDeniedException');
    // What the refused calls wrote anyway before the rule held (none, once it holds): not a client.
    for (const Key of [clientKey('grants-test'), counter]) await client.send(new DeleteCommand({ TableName: table, Key }));
  });

  it('calls outside any function (seeding, the tests\' own reads) are not checked', async () => {
    const client = await dynamoDb();
    expect(await refusal(() => client.send(new GetCommand({ TableName: table, Key: { pk: clientKey('c').pk, sk: 'CLIENT' } })))).toBe('allowed');
  });
});
