import { dynamoDb } from '../aws/clients';
import { config } from '../config';
import { DynamoDbExtensionStore } from './dynamodb/extension-store';
import { DynamoDbJsonValueStore } from './dynamodb/json-value-store';
import type { ExtensionStore } from './extension-store';
import type { JsonValueStore } from './json-value-store';

/** The extension endpoints' stores of this function instance, created on first use and then reused. */
let extensions: ExtensionStore | undefined;
let jsonValues: JsonValueStore | undefined;

export const extensionStore = (): ExtensionStore => (extensions ??= new DynamoDbExtensionStore(dynamoDb, config.tableName));
export const jsonValueStore = (): JsonValueStore => (jsonValues ??= new DynamoDbJsonValueStore(dynamoDb, config.tableName));
