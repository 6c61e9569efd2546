import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { StoreUnavailableError } from '../errors';

/** Errors DynamoDB raises when it is throttled or failing: worth a 503 and a client retry. */
const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'LimitExceededException',
]);

interface DynamoError {
  name?: string;
  Item?: Record<string, AttributeValue>;
  CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[];
}

export const isConditionFailure = (error: unknown): boolean =>
  (error as DynamoError)?.name === 'ConditionalCheckFailedException';

/**
 * The item DynamoDB returned with a failed condition (ReturnValuesOnConditionCheckFailure).
 * It arrives marshalled even through the document client.
 */
export function itemOfConditionFailure(error: unknown): Record<string, unknown> | undefined {
  const item = (error as DynamoError).Item;
  return item ? unmarshall(item) : undefined;
}

/** Why each item of a cancelled transaction failed, in the order of its items. */
export function cancellationReasons(error: unknown): { code: string; item?: Record<string, unknown> }[] | undefined {
  if ((error as DynamoError)?.name !== 'TransactionCanceledException') return undefined;
  return ((error as DynamoError).CancellationReasons ?? []).map((reason) => ({
    code: reason.Code ?? 'None',
    item: reason.Item ? unmarshall(reason.Item) : undefined,
  }));
}

/** A write lost a race that a fresh attempt can win (a transaction conflict, a key that moved). */
export class RetryableRace extends Error {}

/** Lets domain outcomes through; turns engine trouble into StoreUnavailableError. */
export function translateEngineError(error: unknown): never {
  if ((error as DynamoError)?.name === 'TransactionConflictException') throw new RetryableRace();
  if (UNAVAILABLE.has((error as DynamoError)?.name ?? '')) throw new StoreUnavailableError(error);
  throw error;
}
