import { describe, expect, it } from 'vitest';
import LruCache from '../../infra/sdk-stand-ins/lru-cache';
import { eventStreamSerdeProvider, resolveEventStreamSerdeConfig } from '../../infra/sdk-stand-ins/event-streams';

describe('the SDK stand-ins of Lambda bundles', () => {
  it('the endpoint cache keeps the most recently used entries up to its capacity', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1).set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now more recent than b
    cache.set('c', 3);
    expect([cache.has('a'), cache.has('b'), cache.has('c'), cache.size]).toEqual([true, false, true, 2]);
    expect(cache.peek('a')).toBe(1); // a peek leaves the order: a stays the least recent
    cache.set('d', 4);
    expect([cache.has('a'), cache.has('c'), cache.has('d')]).toEqual([false, true, true]);
    cache.set('c', 30); // setting again refreshes, without growing
    cache.set('e', 5);
    expect([cache.get('c'), cache.has('d'), cache.size]).toEqual([30, false, 2]);
    cache.clear();
    expect([cache.size, cache.get('c')]).toEqual([0, undefined]);
  });

  it('a client keeps its event-stream configuration, and an event stream fails loudly', () => {
    const config = resolveEventStreamSerdeConfig({ eventStreamSerdeProvider });
    expect(() => (config.eventStreamMarshaller as { deserialize: () => unknown }).deserialize()).toThrow(/not bundled/);
    const own = { serialize: () => 'own', deserialize: () => 'own' };
    expect(resolveEventStreamSerdeConfig({ eventStreamSerdeProvider: () => own }).eventStreamMarshaller).toBe(own);
  });
});
