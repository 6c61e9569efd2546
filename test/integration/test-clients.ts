import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { generateSecret, hashSecret } from '../../shared/auth/client-secrets';
import { DynamoDbClientStore } from '../../shared/store/dynamodb/client-store';
import { attemptCounterKey } from '../../shared/store/dynamodb/keys';
import { attemptWindow, epochSeconds } from '../../shared/domain/auth/brute-force-brake';
import { baseUrl, call, type ApiAnswer } from './api-client';

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

/** The brake's count of a client's attempts from one source in the current window, read from the table. */
export async function attemptsCounted(clientId: string, source: string, now = epochSeconds()): Promise<number> {
  const { db, tableName } = localTable();
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: attemptCounterKey(clientId, attemptWindow(now).index, source) }));
  return (Item?.attemptIds as Set<string> | undefined)?.size ?? 0;
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

/**
 * A token request sent from another loopback address (127.0.0.2, …): the local gateway passes
 * the socket's address on as requestContext.http.sourceIp, as API Gateway does.
 */
export function requestTokenFrom(localAddress: string, authorization: string, body = 'grant_type=client_credentials'): Promise<ApiAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${baseUrl}/oauth/token`,
      { method: 'POST', localAddress, headers: { 'content-type': FORM, authorization, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: new Headers(response.headers as Record<string, string>), body: text ? JSON.parse(text) : undefined });
        });
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}
