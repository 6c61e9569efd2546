import { describe, expect, it } from 'vitest';
import { handler, type ReindexEvent, type ReplayEvent } from '../../../functions/index-changes/handler';

describe('the index-changes function, invoked to reindex', () => {
  it.each([
    ['no project', { reindex: {} }],
    ['an empty project key', { reindex: { projectKey: '' } }],
    ['a project key that is no string', { reindex: { projectKey: ['a', 'b'] } }],
    ['a cursor that is no string', { reindex: { projectKey: 'demo', cursor: 7 } }],
    ['no run at all', { reindex: null }],
  ])('refuses an event with %s, before reaching any store', async (_, event) => {
    await expect(handler(event as unknown as ReindexEvent)).rejects.toThrow('A reindex event is { reindex: { projectKey: string, cursor?: string } }');
  });
});

describe('the index-changes function, invoked to replay', () => {
  it.each([
    ['no run at all', { replay: null }],
    ['a cursor that is no string', { replay: { cursor: 7 } }],
  ])('refuses an event with %s, before reaching any store', async (_, event) => {
    await expect(handler(event as unknown as ReplayEvent)).rejects.toThrow('A replay event is { replay: { cursor?: string } }');
  });
});
