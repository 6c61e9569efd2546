import { dynamoDb } from '../aws/clients';
import { s3, s3ForPresigning } from '../aws/s3';
import { config } from '../config';
import { DynamoDbUploadStore } from './dynamodb/upload-store';
import { DynamoDbVariantStore } from './dynamodb/variant-store';
import type { ImageStorage } from './image-storage';
import { S3ImageStorage } from './s3/image-storage';
import type { UploadStore } from './upload-store';
import type { VariantStore } from './variant-store';

let variants: VariantStore | undefined;
let images: ImageStorage | undefined;
let uploads: UploadStore | undefined;

/** The image stores of this function instance, created on first use. */
export const variantStore = (): VariantStore => (variants ??= new DynamoDbVariantStore(dynamoDb, config.tableName));
export const imageStorage = (): ImageStorage =>
  (images ??= new S3ImageStorage(s3(), config.imagesBucket, config.imageBaseUrl, config.imageUploadsBucket, s3ForPresigning()));
export const uploadStore = (): UploadStore => (uploads ??= new DynamoDbUploadStore(dynamoDb, config.tableName));
