import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { inject } from 'vitest';
import { baseUrl, tokenFor } from './api-client';
import { LAST_MODIFIED_INDEX_NAME } from '../../shared/store/dynamodb/table-schema';

/**
 * The real handlers, run in this process through the same local gateway, against the suite's
 * DynamoDB Local — with a middleware on the SDK client that records every DynamoDB call and the
 * read units DynamoDB says it consumed (ReturnConsumedCapacity=TOTAL). Counts, not timings.
 */
export interface Observed {
  answer: APIGatewayProxyStructuredResultV2;
  /** The DynamoDB commands sent, in order. */
  calls: string[];
  /** Their inputs, in the same order. */
  inputs: Record<string, unknown>[];
  /** Read capacity units consumed by reads (GetItem, Query, BatchGetItem, ...). */
  readUnits: number;
}

export interface InProcessGateway {
  send(method: string, url: string, json?: unknown, headers?: Record<string, string>): Promise<Observed>;
  /** A request with a body of another type than JSON (an image). */
  sendRaw(method: string, url: string, body: Buffer, contentType: string, headers?: Record<string, string>): Promise<Observed>;
  stop(): void;
}

const READS = /^(GetItem|Query|Scan|BatchGetItem|TransactGetItems)Command$/;

/** `environment` is set before the handlers load (e.g. a small query budget). */
export async function startInProcessGateway(environment: Record<string, string> = {}): Promise<InProcessGateway> {
  const endpoints = JSON.parse(readFileSync(join(inject('dataDir'), 'endpoints.json'), 'utf8'));
  Object.assign(process.env, {
    TABLE_NAME: endpoints.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamoDbEndpoint,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    TOKEN_ISSUER: baseUrl.replace('127.0.0.1', 'localhost'),
    TOKEN_AUDIENCE: 'generic-resource-service',
    SIGNING_KEY_FILE: join(inject('dataDir'), 'signing-key.pem'),
    AWS_LAMBDA_LOG_LEVEL: 'ERROR',
    // The local stack's table has the index, as the default deployment.
    LAST_MODIFIED_INDEX: LAST_MODIFIED_INDEX_NAME,
    SEARCH_DATABASE_URL: endpoints.searchDatabaseUrl,
    ...environment,
  });
  const dynamoDb = (await import('../../shared/composition-root')).dynamoDb();
  let calls: string[] = [];
  let inputs: Record<string, unknown>[] = [];
  let readUnits = 0;
  const name = 'observeDynamoDbCalls';
  dynamoDb.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      calls.push(command);
      inputs.push(args.input as Record<string, unknown>);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (READS.test(command)) {
        const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
        readUnits += [consumed ?? []].flat().reduce((sum, capacity) => sum + (capacity.CapacityUnits ?? 0), 0);
      }
      return result;
    },
    { step: 'initialize', name },
  );
  const gateway = await (await import('../../local/stack')).createLocalGateway();

  const sendRaw = async (method: string, url: string, body: Buffer, contentType?: string, headers: Record<string, string> = {}): Promise<Observed> => {
    const token = await tokenFor();
    calls = [];
    inputs = [];
    readUnits = 0;
    const answer = await gateway.answer({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(contentType === undefined ? {} : { 'content-type': contentType }), ...headers },
      body,
    });
    return { answer, calls: [...calls], inputs: [...inputs], readUnits };
  };
  const send = (method: string, url: string, json?: unknown, headers?: Record<string, string>) =>
    json === undefined ? sendRaw(method, url, Buffer.alloc(0), undefined, headers) : sendRaw(method, url, Buffer.from(JSON.stringify(json)), 'application/json', headers);
  // The authorizer reads the token's client once per cached verdict (300 s), not per request:
  // settle that verdict before counting the operations' own round trips.
  await send('GET', '/demo/resource/key=warm-up');
  return {
    send,
    sendRaw,
    stop: () => {
      dynamoDb.middlewareStack.remove(name);
      for (const variable of Object.keys(environment)) delete process.env[variable];
    },
  };
}
