import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshallOptions } from '../../aws/clients';
import { NoAnswerError, StoreUnavailableError } from '../../domain/errors';

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
  Item?: Record<string, unknown>;
  CancellationReasons?: { Code?: string; Item?: Record<string, unknown> }[];
}

export const isConditionFailure = (error: unknown): boolean =>
  (error as DynamoError)?.name === 'ConditionalCheckFailedException';

/**
 * The item DynamoDB returned with a failed condition (ReturnValuesOnConditionCheckFailure).
 * Depending on how the SDK was loaded (its CommonJS or its ESM build) it arrives marshalled even
 * through the document client, or already plain: read both.
 */
export function itemOfConditionFailure(error: unknown): Record<string, unknown> | undefined {
  return plainItem((error as DynamoError).Item);
}

const ATTRIBUTE_VALUE_TYPES = new Set(['S', 'N', 'B', 'SS', 'NS', 'BS', 'M', 'L', 'NULL', 'BOOL']);

function plainItem(item: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!item) return undefined;
  const marshalled = Object.values(item).every((value) => {
    const keys = value !== null && typeof value === 'object' ? Object.keys(value) : [];
    return keys.length === 1 && ATTRIBUTE_VALUE_TYPES.has(keys[0]!);
  });
  // A copy: the document client writes `convertWithoutMapWrapper` into the options it is given.
  return marshalled ? unmarshall(item as Record<string, AttributeValue>, { ...unmarshallOptions, convertWithoutMapWrapper: false }) : item;
}

/** Why each item of a cancelled transaction failed, in the order of its items. */
export function cancellationReasons(error: unknown): { code: string; item?: Record<string, unknown> }[] | undefined {
  if ((error as DynamoError)?.name !== 'TransactionCanceledException') return undefined;
  return ((error as DynamoError).CancellationReasons ?? []).map((reason) => ({ code: reason.Code ?? 'None', item: plainItem(reason.Item) }));
}

/** A write lost a race that a fresh attempt can win (a transaction conflict, a key that moved). */
export class RetryableRace extends Error {}

/** The connection failed or timed out after the SDK's own retries: no answer, a write's outcome unknown. */
const UNREACHABLE = new Set(['TimeoutError', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/** Lets domain outcomes through; turns engine trouble into StoreUnavailableError, silence into NoAnswerError. */
export function translateEngineError(error: unknown): never {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  if (UNREACHABLE.has(name ?? '') || UNREACHABLE.has(code ?? '')) throw new NoAnswerError(error);
  if ((error as DynamoError)?.name === 'TransactionConflictException') throw new RetryableRace();
  if (UNAVAILABLE.has((error as DynamoError)?.name ?? '')) throw new StoreUnavailableError(error);
  throw error;
}
