import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PendingUpload } from '../../domain/images/image-upload';
import type { UploadStore } from '../upload-store';
import { cancellationReasons, RetryableRace, translateEngineError } from './errors';
import { sendTransaction } from './operations';
import { withRetries } from './retries';
import { projectPartition } from './keys';
import { TABLE_TTL_ATTRIBUTE } from './table-schema';

/**
 * Pending image uploads in the project partition, outside the `RESOURCE#` range:
 *
 *   pk = PROJECT#<projectKey>   sk = UPLOAD#<uploadId>   expiresAt = epoch seconds (the table's TTL attribute)
 *
 * DynamoDB's TTL removes expired records eventually (hours later, and never in DynamoDB Local), so
 * readers compare `expiresAt` with the clock themselves.
 */
export const UPLOAD_PREFIX = 'UPLOAD#';
export const UPLOAD_EXPIRY_ATTRIBUTE = TABLE_TTL_ATTRIBUTE;

export const uploadKey = (projectKey: string, uploadId: string) => ({ pk: projectPartition(projectKey), sk: `${UPLOAD_PREFIX}${uploadId}` });

export class DynamoDbUploadStore implements UploadStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(projectKey: string, upload: PendingUpload): Promise<void> {
    const { selector, ...fields } = upload;
    await this.db
      .send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...uploadKey(projectKey, upload.uploadId),
            type: 'image-upload',
            ...fields,
            ...(selector.sku === undefined ? {} : { sku: selector.sku }),
            ...(selector.id === undefined ? {} : { variantId: selector.id }),
            [UPLOAD_EXPIRY_ATTRIBUTE]: upload.expiresAt,
          },
          // Upload ids are fresh uuids: never overwrite a record.
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      )
      .catch(translateEngineError);
  }

  async get(projectKey: string, uploadId: string): Promise<PendingUpload | undefined> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: uploadKey(projectKey, uploadId), ConsistentRead: true }))
      .catch(translateEngineError);
    if (!Item) return undefined;
    return {
      uploadId: Item.uploadId as string,
      objectKey: Item.objectKey as string,
      contentType: Item.contentType as string,
      size: Item.size as number,
      selector: { ...(Item.sku === undefined ? {} : { sku: Item.sku as string }), ...(Item.variantId === undefined ? {} : { id: Item.variantId as number }) },
      filename: Item.filename as string,
      publish: Item.publish as boolean,
      expiresAt: Item[UPLOAD_EXPIRY_ATTRIBUTE] as number,
    };
  }

  /**
   * Removes the record, once: a one-item transaction, not a conditional DeleteItem. Sent again
   * after a timeout whose first attempt was applied, a DeleteItem finds nothing and the completion
   * would throw the checked image away and answer 404; a transaction is resent with the same
   * ClientRequestToken, which DynamoDB answers as the first (write-tokens.ts). Twice the write
   * units, once per upload.
   */
  async claim(projectKey: string, uploadId: string): Promise<boolean> {
    return withRetries(async () => {
      try {
        await sendTransaction(this.db, {
          TransactItems: [{ Delete: { TableName: this.tableName, Key: uploadKey(projectKey, uploadId), ConditionExpression: 'attribute_exists(pk)' } }],
        });
        return true;
      } catch (error) {
        const reason = cancellationReasons(error)?.[0]?.code;
        if (reason === 'ConditionalCheckFailed') return false; // claimed by another completion, or never started
        if (reason === 'TransactionConflict') throw new RetryableRace(); // another completion is claiming it right now
        return translateEngineError(error);
      }
    });
  }
}
