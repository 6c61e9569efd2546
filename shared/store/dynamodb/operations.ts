import { isConditionFailure, itemOfConditionFailure, translateEngineError } from './errors';

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
