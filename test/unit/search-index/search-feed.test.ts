import { describe, expect, it } from 'vitest';
import { NoAnswerError } from '../../../shared/domain/errors';
import type { Resource } from '../../../shared/domain/resource';
import { SearchFeed } from '../../../shared/services/search-feed';
import type { IndexChange, SearchIndexWriter } from '../../../shared/store/search-index';
import type { SearchIndexFailures } from '../../../shared/store/search-index-failures';

/** A stream record, as the decoder reads it here: a resource's create, or another item. */
type Record = { id: string; other?: true };

/** An index that refuses the resources named, or answers nothing while down; what it applied. */
function engine(refused: string[] = []) {
  const applied: string[] = [];
  const writer = {
    down: false,
    async apply(changes: readonly IndexChange[]) {
      if (writer.down) throw new NoAnswerError(new Error('ECONNREFUSED'));
      const ids = changes.map((change) => (change.kind === 'put' ? change.resource.id : change.id));
      const bad = ids.find((id) => refused.includes(id));
      if (bad) throw new Error(`cannot index ${bad}`);
      applied.push(...ids);
    },
  };
  return { writer: writer as typeof writer & SearchIndexWriter, applied, refused };
}

/** A failure bucket in memory. */
function bucket(objects = new Map<string, unknown[]>()) {
  const failures: SearchIndexFailures = {
    setAside: async (record, reason) => void objects.set(`set-aside/${(record as Record).id}`, [record, reason]),
    list: async (after) => ({ keys: [...objects.keys()].sort().filter((key) => after === undefined || key > after) }),
    read: async (key) => (objects.get(key) as unknown[]).filter((record) => typeof record !== 'string'),
    remove: async (key) => void objects.delete(key),
  };
  return { failures, objects };
}

const resource = (id: string) => ({ id, version: 1, createdAt: '2026-01-01T00:00:00.000Z', lastModifiedAt: '2026-01-01T00:00:00.000Z', objectTypeProperty: {} }) as Resource;
const decode = (record: unknown) => {
  const { id, other } = record as Record;
  return other ? undefined : { projectKey: 'p', id, version: 1, after: resource(id), sequenceNumber: id, writtenAt: '2026-01-01T00:00:00.000Z' };
};
const records = (...ids: string[]): Record[] => ids.map((id) => (id === 'counter' ? { id, other: true } : { id }));

describe('the search feed', () => {
  it('sets aside, with why, each record the engine refuses alone, and applies the rest of its batch; other items are passed over', async () => {
    const { writer, applied } = engine(['b']);
    const { failures, objects } = bucket();
    await new SearchFeed(writer, failures, decode).apply(records('a', 'b', 'counter', 'c'));
    expect(applied.sort()).toEqual(['a', 'c']);
    expect([...objects]).toEqual([['set-aside/b', [{ id: 'b' }, 'Error: cannot index b']]]);
  });

  it('fails the batch, setting nothing aside, when the engine did not answer', async () => {
    const { writer } = engine();
    writer.down = true;
    const { failures, objects } = bucket();
    await expect(new SearchFeed(writer, failures, decode).apply(records('a', 'b'))).rejects.toBeInstanceOf(NoAnswerError);
    expect(objects.size).toBe(0);
  });

  it('fails the batch when every change of it fails alone: the engine failed, not they; one change alone is a defect', async () => {
    const { writer } = engine(['a', 'b']);
    const { failures, objects } = bucket();
    const feed = new SearchFeed(writer, failures, decode);
    await expect(feed.apply(records('a', 'counter', 'b'))).rejects.toThrow('cannot index');
    expect(objects.size).toBe(0);
    await feed.apply(records('a', 'counter'));
    expect([...objects.keys()]).toEqual(['set-aside/a']);
  });

  it('replays what the bucket keeps: indexed and removed, or kept while it still fails; a run stops with a cursor', async () => {
    const kept = new Map<string, unknown[]>([
      ['k1', [{ id: 'a' }]],
      ['k2', [{ id: 'b' }, { id: 'c' }]],
      ['k3', [{ id: 'd' }]],
    ]);
    const { writer, applied } = engine(['c']);
    const { failures, objects } = bucket(kept);
    const feed = new SearchFeed(writer, failures, decode);
    let runs = 0;
    const first = await feed.replay({ keepGoing: () => ++runs < 2 });
    expect(first).toEqual({ replayed: 1, kept: 1, cursor: 'k2' });
    expect(await feed.replay({ cursor: first.cursor })).toEqual({ replayed: 1, kept: 0 });
    expect(applied.sort()).toEqual(['a', 'b', 'd']);
    expect([...objects.keys()]).toEqual(['k2']);
  });
});
