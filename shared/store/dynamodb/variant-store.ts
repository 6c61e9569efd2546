import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InvalidOperationError } from '../../domain/errors';
import type { Image, Variant } from '../../domain/images/variant';
import { MAX_VARIANT_IMAGES } from '../../domain/images/variant-limits';
import type { VariantStore } from '../variant-store';
import { cancellationReasons, RetryableRace, translateEngineError } from './errors';
import { conditionalWrite, sendTransaction } from './operations';
import { newWriteToken } from './write-tokens';
import { projectPartition } from './keys';
import { withRetries } from './retries';

/**
 * Variants in the project partition: `VARIANT#<id>` holds the variant, `SKU#<sku>` makes skus
 * unique (written in the same transaction as the variant), and `VARIANT_SEQUENCE` numbers the
 * variants that are created by sku alone.
 */
const variantKey = (projectKey: string, id: number) => ({ pk: projectPartition(projectKey), sk: `VARIANT#${id}` });
const skuKey = (projectKey: string, sku: string) => ({ pk: projectPartition(projectKey), sk: `SKU#${sku}` });
const sequenceKey = (projectKey: string) => ({ pk: projectPartition(projectKey), sk: 'VARIANT_SEQUENCE' });

export class DynamoDbVariantStore implements VariantStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  attachImage(projectKey: string, selector: { sku?: string; id?: number }, image: Image, publish: boolean): Promise<Variant> {
    return withRetries(async () => {
      const idOfSku = selector.sku === undefined ? undefined : await this.variantIdOfSku(projectKey, selector.sku);
      if (selector.id !== undefined && idOfSku !== undefined && idOfSku !== selector.id) {
        throw new InvalidOperationError(`The sku '${selector.sku}' belongs to variant ${idOfSku}, not to variant ${selector.id}.`);
      }
      if (idOfSku !== undefined) return this.append(projectKey, idOfSku, image, publish);
      if (selector.id === undefined) return this.createUnderNextNumber(projectKey, selector.sku, image, publish);
      // A variant id, with a sku no variant has yet (or none): that variant, or a new one.
      const existing = await this.appendIfExists(projectKey, selector.id, selector.sku, image, publish);
      return existing ?? this.create(projectKey, selector.id, selector.sku, image, publish);
    });
  }

  private async variantIdOfSku(projectKey: string, sku: string): Promise<number | undefined> {
    const { Item } = await this.db
      .send(new GetCommand({ TableName: this.tableName, Key: skuKey(projectKey, sku), ConsistentRead: true }))
      .catch(translateEngineError);
    return Item?.variantId as number | undefined;
  }

  private async append(projectKey: string, id: number, image: Image, publish: boolean): Promise<Variant> {
    const variant = await this.appendIfExists(projectKey, id, undefined, image, publish);
    if (!variant) throw new RetryableRace(); // the sku pointed at a variant that is not there yet
    return variant;
  }

  /**
   * Appends in one UpdateItem; undefined when the variant does not exist. The condition also holds
   * each list the image joins under MAX_VARIANT_IMAGES, so that concurrent uploads cannot pass it.
   */
  private async appendIfExists(projectKey: string, id: number, sku: string | undefined, image: Image, publish: boolean) {
    const token = newWriteToken();
    const conditions = [
      'attribute_exists(pk)',
      // With a sku given, the variant must carry that very sku (both name the same variant).
      ...(sku === undefined ? [] : ['sku = :sku']),
      'size(stagedImages) < :maxImages',
      ...(publish ? ['size(images) < :maxImages'] : []),
      token.condition,
    ];
    return conditionalWrite(
      async () => {
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: variantKey(projectKey, id),
            UpdateExpression: publish
              ? `SET stagedImages = list_append(stagedImages, :image), images = list_append(images, :image), ${token.set}`
              : `SET stagedImages = list_append(stagedImages, :image), ${token.set}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeValues: { ':image': [image], ':maxImages': MAX_VARIANT_IMAGES, ...(sku === undefined ? {} : { ':sku': sku }), ...token.values },
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return toVariant(Attributes!);
      },
      (current) => {
        // The SDK sent this append again after an attempt that was applied: the image is there once (write-tokens.ts).
        if (token.appliedIn(current)) return toVariant(current!);
        if (!current) return undefined;
        // Which conjunct failed, told from the item as the condition saw it (ALL_OLD).
        if (sku !== undefined && current.sku !== sku) {
          throw new InvalidOperationError(
            `Variant ${id} has ${current.sku === undefined ? 'no sku' : `the sku '${String(current.sku)}'`}, not '${sku}'.`,
          );
        }
        const full = [current.stagedImages, ...(publish ? [current.images] : [])].some(
          (list) => Array.isArray(list) && list.length >= MAX_VARIANT_IMAGES,
        );
        if (full) throw new InvalidOperationError(`Variant ${id} holds the maximum of ${MAX_VARIANT_IMAGES} images: no more can be attached.`);
        throw new Error(`The append to variant ${id} failed its condition, and the variant shows no reason.`);
      },
    );
  }

  private async create(projectKey: string, id: number, sku: string | undefined, image: Image, publish: boolean): Promise<Variant> {
    const variant: Variant = { id, ...(sku === undefined ? {} : { sku }), images: publish ? [image] : [], stagedImages: [image] };
    try {
      await sendTransaction(this.db, {
        TransactItems: [
          { Put: { TableName: this.tableName, Item: { ...variantKey(projectKey, id), type: 'variant', ...variant }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ...(sku === undefined
            ? []
            : [{ Put: { TableName: this.tableName, Item: { ...skuKey(projectKey, sku), type: 'variant-sku', variantId: id }, ConditionExpression: 'attribute_not_exists(pk)' } }]),
        ],
      });
      return variant;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) return translateEngineError(error);
      // The number is another variant's while the sku is free: a number to skip (one a client gave).
      if (reasons[0]?.code === 'ConditionalCheckFailed' && (reasons[1] ?? { code: 'None' }).code === 'None') throw new VariantNumberTaken();
      // Another upload created the variant or took the sku meanwhile: look again.
      throw new RetryableRace();
    }
  }

  /**
   * A new variant (a new sku, no number given) under the next number of the project's sequence.
   * Numbers clients gave their variants (`variant=N`) are not in the sequence: each one met is
   * skipped at once, without spending the retries of races (six would have ended in 409 in a
   * project whose variants 1–6 were numbered by hand).
   */
  private async createUnderNextNumber(projectKey: string, sku: string | undefined, image: Image, publish: boolean): Promise<Variant> {
    for (let drawn = 1; ; drawn++) {
      try {
        return await this.create(projectKey, await this.nextVariantId(projectKey), sku, image, publish);
      } catch (error) {
        if (!(error instanceof VariantNumberTaken) || drawn >= MAX_NUMBER_DRAWS) throw error;
      }
    }
  }

  private async nextVariantId(projectKey: string): Promise<number> {
    const { Attributes } = await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: sequenceKey(projectKey),
          UpdateExpression: 'ADD lastVariantId :one',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      )
      .catch(translateEngineError);
    return Attributes!.lastVariantId as number;
  }
}

/** Numbers drawn in one attempt before it counts as a race lost (each is a round trip or two). */
const MAX_NUMBER_DRAWS = 100;

/** A variant number held by another variant: taken as a race lost where the number was the client's. */
class VariantNumberTaken extends RetryableRace {}

function toVariant(item: Record<string, unknown>): Variant {
  return {
    id: item.id as number,
    ...(item.sku === undefined ? {} : { sku: item.sku as string }),
    images: (item.images as Image[]) ?? [],
    stagedImages: (item.stagedImages as Image[]) ?? [],
  };
}
