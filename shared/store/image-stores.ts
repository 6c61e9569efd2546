import { dynamoDb } from '../aws/clients';
import { s3 } from '../aws/s3';
import { config } from '../config';
import { DynamoDbVariantStore } from './dynamodb/variant-store';
import type { ImageStorage } from './image-storage';
import { S3ImageStorage } from './s3/image-storage';
import type { VariantStore } from './variant-store';

let variants: VariantStore | undefined;
let images: ImageStorage | undefined;

/** The image stores of this function instance, created on first use. */
export const variantStore = (): VariantStore => (variants ??= new DynamoDbVariantStore(dynamoDb, config.tableName));
export const imageStorage = (): ImageStorage => (images ??= new S3ImageStorage(s3(), config.imagesBucket, config.imageBaseUrl));
