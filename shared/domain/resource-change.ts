import type { Resource } from './resource';

/** One write of a resource as the table's stream tells it, for its consumers (subscriptions, the search index): a create has no `before`, a delete no `after`. */
export interface ResourceChange {
  projectKey: string;
  id: string;
  /** Its key after the write (a delete: before it). */
  key?: string;
  /** Its version after the write (a delete: the version it had). */
  version: number;
  before?: Resource;
  after?: Resource;
  /** The stream's sequence number: increases for each write of one item. */
  sequenceNumber: string;
  /** When the write happened, as the stream records it (ISO 8601). */
  writtenAt: string;
}
