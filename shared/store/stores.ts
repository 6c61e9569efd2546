import { dynamoDb } from '../aws/clients';
import { config } from '../config';
import type { ClientStore } from './client-store';
import { DynamoDbClientStore } from './dynamodb/client-store';
import { DynamoDbResourceStore } from './dynamodb/resource-store';
import type { ResourceStore } from './resource-store';

/** The stores of this function instance, created on first use and then reused. */
let resources: ResourceStore | undefined;
let clients: ClientStore | undefined;

export const resourceStore = (): ResourceStore => (resources ??= new DynamoDbResourceStore(dynamoDb, config.tableName));
export const clientStore = (): ClientStore => (clients ??= new DynamoDbClientStore(dynamoDb, config.tableName));
