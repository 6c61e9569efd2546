import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { generateSecret, hashSecret } from '../../shared/auth/client-secrets';
import { DynamoDbClientStore } from '../../shared/store/dynamodb/client-store';
import { clientKey } from '../../shared/store/dynamodb/keys';
import { call } from './api-client';

/**
 * Dedicated API clients for tests that lock or revoke them, written straight into the local
 * stack's table (found through the endpoints.json that `npm start` writes), so that the shared
 * development client is never locked for the other suites.
 */
export const localTable = (() => {
  let table: { db: DynamoDBDocumentClient; tableName: string } | undefined;
  return () => {
    if (table) return table;
    const { dynamoDbEndpoint, tableName } = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8')) as {
      dynamoDbEndpoint: string;
      tableName: string;
    };
    const client = new DynamoDBClient({ endpoint: dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    return (table = { db: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }), tableName });
  };
})();

export const localStore = () => new DynamoDbClientStore(localTable().db, localTable().tableName);

/** Moves a client's failure window and last failure into the past, as if `seconds` had passed. */
export async function rewindFailures(clientId: string, seconds: number): Promise<void> {
  const { db, tableName } = localTable();
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: clientKey(clientId),
      UpdateExpression: 'SET authFailureWindowStart = authFailureWindowStart - :s, authFailureLastAt = authFailureLastAt - :s',
      ExpressionAttributeValues: { ':s': seconds },
    }),
  );
}

export interface TestClient {
  clientId: string;
  secret: string;
}

export async function createTestClient(scopes: string[], prefix = 'test'): Promise<TestClient> {
  const clientId = `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
  const secret = generateSecret();
  await localStore().put({ clientId, name: `${prefix} client`, secretHash: await hashSecret(secret), scopes, createdAt: new Date().toISOString() });
  return { clientId, secret };
}

export const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;

const FORM = 'application/x-www-form-urlencoded';

export const requestToken = (authorization: string, body = 'grant_type=client_credentials') =>
  call('POST', '/oauth/token', { body, headers: { 'content-type': FORM, authorization } });

export const introspect = (authorization: string | undefined, body: string) =>
  call('POST', '/oauth/introspect', { body, headers: { 'content-type': FORM, ...(authorization ? { authorization } : {}) } });
