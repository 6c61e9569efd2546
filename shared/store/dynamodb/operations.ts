import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { NoAnswerError, StoreUnavailableError } from '../../domain/errors';
import { cancellationReasons, isConditionFailure, itemOfConditionFailure, translateEngineError } from './errors';

type Item = Record<string, unknown>;
type Key = Record<string, unknown>;

/**
 * Runs one conditional write. Its answer when the condition held; when it failed, what
 * `onConditionFailed` makes of the current item (present when the write asked for
 * `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` and the item exists) — a value, or a domain
 * error it throws. Engine trouble is translated (translateEngineError).
 */
export async function conditionalWrite<Written, Failed>(
  write: () => Promise<Written>,
  onConditionFailed: (current: Item | undefined) => Failed | Promise<Failed>,
): Promise<Written | Failed> {
  try {
    return await write();
  } catch (error) {
    if (!isConditionFailure(error)) return translateEngineError(error);
    return onConditionFailed(itemOfConditionFailure(error));
  }
}

/** One page of a Query or Scan: its items and where the next page starts. */
interface ItemPage {
  Items?: Item[];
  LastEvaluatedKey?: Key;
}

/**
 * Every item of a paged Query or Scan, page by page: `readPage` sends the request starting at
 * the key it is given (for the first page `startAfter`, else undefined). Stops when DynamoDB says
 * there is no more, or when the consumer stops iterating (no page is read ahead).
 */
export async function* itemsOf(readPage: (exclusiveStartKey: Key | undefined) => Promise<ItemPage>, startAfter?: Key): AsyncIterable<Item> {
  let exclusiveStartKey: Key | undefined = startAfter;
  do {
    const page = await readPage(exclusiveStartKey).catch(translateEngineError);
    yield* page.Items ?? [];
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
}

/** Every item of a paged Query or Scan, collected. */
export async function allItemsOf(readPage: (exclusiveStartKey: Key | undefined) => Promise<ItemPage>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of itemsOf(readPage)) items.push(item);
  return items;
}

/** When a transaction DynamoDB still reports in progress is sent once more: this long after its first send (DynamoDB's advice). */
export const IN_PROGRESS_PATIENCE_MS = 5_000;

/**
 * Sends a transaction so that it is applied and answered once, however often it is sent: with a
 * ClientRequestToken of its own, which every resend carries. After a request timeout
 * (shared/aws/request-timeouts.ts) the SDK resends at once, and while the first attempt still
 * runs DynamoDB answers `TransactionInProgressException`; the SDK retries that as throttling, but
 * its attempts end within about 3 s, and DynamoDB advises one more send at least 5 s after the
 * first, when it answers as it answered the first attempt. That send is made here. Still in
 * progress then, the outcome is unknown (NoAnswerError: 503, as for any request a client gives up
 * on). Other errors are thrown as they came.
 */
export async function sendTransaction(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  input: TransactWriteCommandInput,
  clock: { now(): number; wait(ms: number): Promise<unknown> } = realClock,
): Promise<void> {
  const request = { ...input, ClientRequestToken: input.ClientRequestToken ?? randomUUID() };
  const firstSent = clock.now();
  try {
    await db.send(new TransactWriteCommand(request));
    return;
  } catch (error) {
    if (!isInProgress(error)) throw asStoreTrouble(error);
  }
  await clock.wait(Math.max(0, firstSent + IN_PROGRESS_PATIENCE_MS - clock.now()));
  try {
    await db.send(new TransactWriteCommand(request));
  } catch (error) {
    throw isInProgress(error) ? new NoAnswerError(error) : asStoreTrouble(error);
  }
}

const isInProgress = (error: unknown) => (error as { name?: string })?.name === 'TransactionInProgressException';

/** Cancellation reasons that say DynamoDB lacked capacity, not that a condition or another writer decided. */
const CAPACITY_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/**
 * A transaction DynamoDB cancelled for capacity is the store being unavailable (503, as a
 * throttled single write), not a race to try again at once nor a condition the caller reads:
 * callers only ever see cancellations for conditions and conflicts.
 */
function asStoreTrouble(error: unknown): unknown {
  const reasons = cancellationReasons(error);
  return reasons?.some((reason) => CAPACITY_REASONS.has(reason.code)) ? new StoreUnavailableError(error) : error;
}

const realClock = { now: () => Date.now(), wait: (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)) };
