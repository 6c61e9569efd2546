import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { planQuery } from '../../../shared/domain/query';
import { creationOrderedId } from '../../../shared/domain/resource-id';
import { DynamoDbResourceQueryStore } from '../../../shared/store/dynamodb/resource-query-store';

/**
 * ResourceQueryStore.skip over a fake partition whose Query answers at most PAGE items whatever its
 * Limit, as DynamoDB does at 1 MB of items read: the pass goes on from LastEvaluatedKey, asks
 * for what is still to pass and one more (to see whether the page starts inside a group of equal
 * order), and gives back that group.
 */
const PAGE = 3;
const at = (millisecond: number) => new Date(Date.UTC(2026, 0, 1) + millisecond).toISOString();

function partition(createdAt: number[]) {
  const items = createdAt.map((millisecond) => {
    const id = creationOrderedId(at(millisecond));
    return { pk: 'PROJECT#p', sk: `RESOURCE#${id}`, id, createdAt: at(millisecond) };
  });
  return items.sort((a, b) => (a.sk < b.sk ? -1 : 1));
}

function fakeDb(items: ReturnType<typeof partition>) {
  const limits: number[] = [];
  const db = {
    send: async (command: { input: { Limit?: number; ExclusiveStartKey?: { sk: string }; ScanIndexForward?: boolean; ProjectionExpression?: string } }) => {
      const { Limit = Infinity, ExclusiveStartKey, ScanIndexForward = true, ProjectionExpression } = command.input;
      expect(ProjectionExpression).toBe('#pk, #sk, #createdAt');
      limits.push(Limit);
      const ordered = ScanIndexForward ? items : [...items].reverse();
      const start = ExclusiveStartKey ? ordered.findIndex((item) => item.sk === ExclusiveStartKey.sk) + 1 : 0;
      const answered = ordered.slice(start, start + Math.min(Limit, PAGE)).map(({ pk, sk, createdAt }) => ({ pk, sk, createdAt }));
      const last = answered.at(-1);
      const more = start + answered.length < ordered.length;
      return { Items: answered, ...(last && more ? { LastEvaluatedKey: { pk: last.pk, sk: last.sk } } : {}) };
    },
  };
  return { store: new DynamoDbResourceQueryStore(db as unknown as DynamoDBDocumentClient, 'table'), limits };
}

const skipOf = (sort: string, where: string[] = [], count = 0) => {
  const plan = planQuery({ where, sort: [sort], variables: {} });
  const access = plan.access(true);
  return { access, skip: { count, matches: plan.matches, order: access.streamOrder! } };
};

describe('DynamoDbResourceQueryStore.skip', () => {
  it('passes over more than one answer of the Query, asking each time only for what is left', async () => {
    const items = partition([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const { store, limits } = fakeDb(items);
    const { access, skip } = skipOf('createdAt asc', [], 7);
    const skipped = await store.skip('p', access, skip);
    expect(skipped).toEqual({ passed: 7, after: { pk: 'PROJECT#p', sk: items[6]!.sk } });
    expect(limits).toEqual([8, 5, 2]);
  });

  it('gives back the last group of equal createdAt, which the page orders itself', async () => {
    const items = partition([1, 2, 3, 3, 3, 4]);
    const { store } = fakeDb(items);
    const { access, skip } = skipOf('createdAt asc', [], 4);
    expect(await store.skip('p', access, skip)).toEqual({ passed: 2, after: { pk: 'PROJECT#p', sk: items[1]!.sk } });
    // A group that ends where the page starts is passed.
    const whole = skipOf('createdAt asc', [], 5);
    expect(await store.skip('p', whole.access, whole.skip)).toEqual({ passed: 5, after: { pk: 'PROJECT#p', sk: items[4]!.sk } });
    const descending = skipOf('createdAt desc', [], 2);
    expect(await store.skip('p', { ...descending.access }, descending.skip)).toEqual({ passed: 1, after: { pk: 'PROJECT#p', sk: items[5]!.sk } });
    // A group reaching back to the start: nothing passed, the page reads from the start.
    const all = skipOf('createdAt desc', [], 2);
    expect(await fakeDb(partition([5, 5, 5])).store.skip('p', all.access, all.skip)).toEqual({ passed: 0 });
  });

  it('counts only what the predicate accepts, on the keys and createdAt it read', async () => {
    const items = partition([1, 1, 2, 3, 4, 5, 6]);
    const { store } = fakeDb(items);
    const { access, skip } = skipOf('createdAt asc', [`createdAt > "${at(1)}"`], 3);
    expect(await store.skip('p', access, skip)).toEqual({ passed: 3, after: { pk: 'PROJECT#p', sk: items[4]!.sk } });
  });

  it('stops at the end of the range', async () => {
    const { store, limits } = fakeDb(partition([1, 2, 3, 4]));
    const { access, skip } = skipOf('id asc', [], 10);
    expect((await store.skip('p', access, skip)).passed).toBe(4);
    expect(limits).toEqual([11, 8]);
  });
});
