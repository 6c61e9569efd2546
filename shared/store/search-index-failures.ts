/**
 * What the search index could not take, kept with the records themselves (an S3 bucket): each
 * stream record the indexer set aside as a defect, and the batches the stream's mapping gave up
 * (Lambda's on-failure records, batch included). `npm run search -- replay` indexes them.
 */
export interface SearchIndexFailures {
  /** Keeps one stream record, as Lambda handed it over, with why it could not be indexed. */
  setAside(record: unknown, reason: string): Promise<void>;
  /** A page of what is kept, in key order after `after`; `next` when there is more. */
  list(after?: string): Promise<{ keys: string[]; next?: string }>;
  /** The stream records one kept object holds (one set aside, or a batch given up). */
  read(key: string): Promise<unknown[]>;
  remove(key: string): Promise<void>;
}
