import type { ResourceQueryStore } from '../store/resource-store';
import type { IndexChange, SearchIndexWriter } from '../store/search-index';
import type { SearchIndexContents } from '../store/search-index-contents';

export interface ReindexRun {
  /** Where to go on from: the cursor of a run that stopped; none, the project's first resource. */
  cursor?: string;
  /** Asked after each batch written: false ends the run, which answers where it stopped. */
  keepGoing?: () => boolean;
  /** False: the engine's statistics are left to the caller (a rebuild of every project refreshes them once). */
  analyze?: boolean;
}

export interface ReindexProgress {
  projectKey: string;
  /** Where the next run goes on from; none when the project is done. */
  cursor?: string;
  /** Resources read from the table and put into the index at their versions. */
  indexed: number;
  /** Resources the index held that the table no longer has, marked deleted. */
  removed: number;
}

export interface ReindexSizes {
  /** Resources per write to the index (one transaction). */
  batch: number;
  /** Index entries compared with the table at a time. */
  window: number;
}

/**
 * Rebuilds a project's part of the search index from the table, the record: after a first deploy
 * on a table with data, or after the feed failed. It runs beside the stream, and the index's
 * version guard settles every race: each resource is put at the version read (a newer one written
 * meanwhile by the stream stays; a delete marker keeps a resource deleted meanwhile out).
 *
 * Resources deleted while the feed was broken are still in the index: window by window, in id
 * order, the index's entries are read first, then the table over the same ids. An entry the table
 * did not have when read is of a resource deleted (ids are never reused), and is marked deleted at
 * the version the index held: if the stream raised that version meanwhile, the marker does not
 * apply, and the stream's own delete follows. A resource created after its entries were read is
 * no candidate, so nothing the stream indexed meanwhile is removed. A finished project ends with
 * the engine's statistics refreshed: a bulk load would otherwise be planned as the small index it was.
 */
export class SearchIndexing {
  constructor(
    private readonly resources: ResourceQueryStore,
    private readonly index: SearchIndexWriter,
    private readonly contents: SearchIndexContents,
    private readonly sizes: ReindexSizes = { batch: 500, window: 1_000 },
  ) {}

  async reindex(projectKey: string, run: ReindexRun = {}): Promise<ReindexProgress> {
    const keepGoing = run.keepGoing ?? (() => true);
    const progress: ReindexProgress = { projectKey, indexed: 0, removed: 0 };
    let after = run.cursor;
    for (;;) {
      const entries = await this.contents.indexedVersions(projectKey, after, this.sizes.window);
      const windowEnd = entries.length === this.sizes.window ? entries.at(-1)!.id : undefined;
      const unseen = new Map(entries.map(({ id, version }) => [id, version]));
      const { readTo, complete } = await this.putWindow(projectKey, after, windowEnd, unseen, keepGoing, progress);
      // Only ids the table read covered (in its own order, code units as DynamoDB's bytes for these ids).
      const coveredTo = complete ? windowEnd : readTo;
      const gone: IndexChange[] = [...unseen]
        .filter(([id]) => (after === undefined || id > after) && (coveredTo === undefined || id <= coveredTo))
        .map(([id, version]) => ({ kind: 'delete', projectKey, id, version }));
      if (gone.length > 0) await this.index.apply(gone);
      progress.removed += gone.length;
      if (!complete) return { ...progress, cursor: readTo };
      if (windowEnd === undefined) {
        if (run.analyze !== false) await this.index.analyze();
        return progress;
      }
      after = windowEnd;
      if (!keepGoing()) return { ...progress, cursor: after };
    }
  }

  /**
   * Puts the table's resources after `after` up to `to` (inclusive; none: the last) into the index,
   * a batch at a time, and strikes each from `unseen`. Stops early, after a batch, when told to:
   * `readTo` is then the last id written.
   */
  private async putWindow(
    projectKey: string,
    after: string | undefined,
    to: string | undefined,
    unseen: Map<string, number>,
    keepGoing: () => boolean,
    progress: ReindexProgress,
  ): Promise<{ readTo?: string; complete: boolean }> {
    let batch: IndexChange[] = [];
    let readTo: string | undefined;
    const write = async () => {
      await this.index.apply(batch);
      progress.indexed += batch.length;
      readTo = (batch.at(-1) as Extract<IndexChange, { kind: 'put' }>).resource.id;
      batch = [];
    };
    const range = { on: 'id' as const, from: after, to, descending: false };
    for await (const resource of this.resources.read(projectKey, { range }, this.sizes.batch)) {
      // The range's lower bound is inclusive.
      if (after !== undefined && resource.id <= after) continue;
      unseen.delete(resource.id);
      batch.push({ kind: 'put', projectKey, resource });
      if (batch.length === this.sizes.batch) {
        await write();
        if (!keepGoing()) return { readTo, complete: false };
      }
    }
    if (batch.length > 0) await write();
    return { readTo, complete: true };
  }
}
