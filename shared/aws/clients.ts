import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * AWS clients, created once per function instance and reused across invocations. Endpoints come
 * from the SDK's own settings (`AWS_ENDPOINT_URL_DYNAMODB` points them at DynamoDB Local).
 */
export const dynamoDb = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});
