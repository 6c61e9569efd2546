import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { requestHandler } from './request-timeouts';
import { withoutSdkLogging } from './sdk-logging';

/**
 * Numbers are doubles both ways: a draft may hold any number DynamoDB stores (magnitude up to
 * 1e125), so beyond 2^53 they are written as given and read back as doubles, not as BigInt (which
 * JSON cannot render). Also for items read outside the document client (failed conditions).
 */
export const unmarshallOptions = { wrapNumbers: (value: string) => Number(value) };

/**
 * The DynamoDB document client as every store uses it; the composition root creates it once per
 * process. Endpoints come from the SDK's own settings (`AWS_ENDPOINT_URL_DYNAMODB` points it at
 * DynamoDB Local).
 */
export function createDynamoDbClient(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(withoutSdkLogging(new DynamoDBClient({ requestHandler: requestHandler() })), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false, allowImpreciseNumbers: true },
    unmarshallOptions: { ...unmarshallOptions }, // the document client writes into the options it gets
  });
}
