import { NoAnswerError } from '../domain/errors';
import type { ResourceChange } from '../domain/resource-change';
import { logger } from '../observability/logger';
import type { IndexChange, SearchIndexWriter } from '../store/search-index';
import type { SearchIndexFailures } from '../store/search-index-failures';
import type { ReindexRun } from './search-indexing';

/** The line logged for each record set aside (the stack can count it). */
export const RECORD_SET_ASIDE_MESSAGE = 'search index record set aside';

export interface ReplayProgress {
  /** Kept objects whose records are now indexed, and removed. */
  replayed: number;
  /** Kept objects holding a record that still fails: left where they are. */
  kept: number;
  cursor?: string;
}

type Entry = { record: unknown; change?: IndexChange };
type Failed = Entry & { error: unknown };

/**
 * The search index's feed: stream records applied to the index, a batch in one transaction. An
 * engine that did not answer fails the batch (NoAnswerError: the stream gives it again, until it
 * expires); any other failure is a defect of some record, found by halving the batch: each record
 * that fails alone is set aside with why (the failure destination keeps it), logged, and passed
 * over — unless every record of the batch does.
 */
export class SearchFeed {
  constructor(
    private readonly index: SearchIndexWriter,
    private readonly failures: SearchIndexFailures,
    /** The stream's decoder: a resource's change, undefined for other items, a throw for a record it cannot read. */
    private readonly decode: (record: unknown) => ResourceChange | undefined,
  ) {}

  async apply(records: readonly unknown[]): Promise<void> {
    const { failed, of } = await this.applyEach(records);
    // Every change failing alone is the engine's failure, not theirs (say, an instance left read-only by a failover): the batch fails.
    if (failed.length > 1 && failed.length === of) throw failed[0]!.error;
    for (const { record, change, error } of failed) {
      const reason = String(error);
      await this.failures.setAside(record, reason);
      const { SequenceNumber: sequenceNumber } = (record as { dynamodb?: { SequenceNumber?: string } }).dynamodb ?? {};
      logger.error(RECORD_SET_ASIDE_MESSAGE, { sequenceNumber, projectKey: change?.projectKey, id: change && idOf(change), reason });
    }
  }

  /** Indexes what the failure destination keeps, object by object; an object is removed once all its records are indexed. */
  async replay(run: ReindexRun = {}): Promise<ReplayProgress> {
    const keepGoing = run.keepGoing ?? (() => true);
    const progress: ReplayProgress = { replayed: 0, kept: 0 };
    for (let after = run.cursor; ; ) {
      const { keys, next } = await this.failures.list(after);
      for (const key of keys) {
        if ((await this.applyEach(await this.failures.read(key))).failed.length === 0) {
          await this.failures.remove(key);
          progress.replayed++;
        } else progress.kept++;
        after = key;
        if (!keepGoing() && (key !== keys.at(-1) || next)) return { ...progress, cursor: after };
      }
      if (!next) return progress;
    }
  }

  /** The records that failed alone, each with its failure, of how many resource records. */
  private async applyEach(records: readonly unknown[]): Promise<{ failed: Failed[]; of: number }> {
    const unreadable: Failed[] = [];
    const entries: Entry[] = [];
    for (const record of records) {
      try {
        const change = this.decode(record);
        if (change) entries.push({ record, change: indexChangeOf(change) });
      } catch (error) {
        unreadable.push({ record, error });
      }
    }
    return { failed: [...unreadable, ...(await this.halving(entries))], of: unreadable.length + entries.length };
  }

  private async halving(entries: readonly Entry[]): Promise<Failed[]> {
    if (entries.length === 0) return [];
    try {
      await this.index.apply(entries.map(({ change }) => change!));
      return [];
    } catch (error) {
      if (error instanceof NoAnswerError) throw error;
      if (entries.length === 1) return [{ ...entries[0]!, error }];
      const half = Math.ceil(entries.length / 2);
      return [...(await this.halving(entries.slice(0, half))), ...(await this.halving(entries.slice(half)))];
    }
  }
}

/** What the index takes of a change: the resource as written, or the version it had when deleted. */
const indexChangeOf = ({ projectKey, id, version, after }: ResourceChange): IndexChange =>
  after ? { kind: 'put', projectKey, resource: after } : { kind: 'delete', projectKey, id, version };
const idOf = (change: IndexChange) => (change.kind === 'put' ? change.resource.id : change.id);
