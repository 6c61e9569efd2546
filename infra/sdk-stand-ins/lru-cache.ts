/**
 * Stands in for `mnemonist/lru-cache` inside Lambda bundles (an esbuild alias set in
 * infra/bundling.ts). The DynamoDB client builds its endpoint-discovery cache from it even though
 * discovery is off (it is opt-in, and no operation here requires it); mnemonist's typed-array
 * cache costs 7.7 KB in every bundle. The same least-recently-used behaviour on a Map, for the
 * methods the SDK's EndpointCache calls.
 */
export default class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value, its recency unchanged. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    // A Map iterates in insertion order: its first key is the least recently used.
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  clear(): void {
    this.entries.clear();
  }
}
