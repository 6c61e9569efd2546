import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createDynamoDbClient } from '../../../shared/aws/clients';
import { createKmsClient } from '../../../shared/aws/kms';
import { createLambdaClient } from '../../../shared/aws/lambda';
import { createPresigningS3Client, createS3Client } from '../../../shared/aws/s3';
import { SDK_LOGGER_MIDDLEWARE } from '../../../shared/aws/sdk-logging';

interface WithStack {
  middlewareStack: { identify(): string[] };
}
const middlewares = (client: WithStack) => client.middlewareStack.identify().map((entry) => entry.split(' - ')[0]);

describe('SDK clients the service creates log nothing, so they skip the SDK log entry', () => {
  it('the SDK still names its logger middleware as the service removes it (a renamed one would be kept silently)', () => {
    for (const client of [new DynamoDBClient({}), new S3Client({}), new KMSClient({}), new LambdaClient({})]) {
      expect(middlewares(client)).toContain(SDK_LOGGER_MIDDLEWARE);
    }
  });

  it('every client of the composition root is built without it', () => {
    const clients: Record<string, WithStack> = {
      dynamoDb: createDynamoDbClient(),
      s3: createS3Client(),
      s3ForPresigning: createPresigningS3Client(),
      lambda: createLambdaClient(),
      kms: createKmsClient(),
    };
    for (const [name, client] of Object.entries(clients)) {
      expect(middlewares(client), name).not.toContain(SDK_LOGGER_MIDDLEWARE);
      expect(middlewares(client).length, name).toBeGreaterThan(5); // the rest of the stack is untouched
    }
  });
});
