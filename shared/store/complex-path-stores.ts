import { dynamoDb } from '../aws/clients';
import { config } from '../config';
import type { ComplexPathStore } from './complex-path-store';
import { DynamoDbComplexPathStore } from './dynamodb/complex-path-store';

/** Row 9's store of this function instance, created on first use and then reused (as in stores.ts). */
let complexPaths: ComplexPathStore | undefined;

export const complexPathStore = (): ComplexPathStore => (complexPaths ??= new DynamoDbComplexPathStore(dynamoDb, config.tableName));
