/** The bundles goal's yardstick (bench/bundles.ts): a function holding nothing but the DynamoDB document client. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async () => ({ statusCode: client ? 200 : 500 });
