import type { RebuildState, SearchIndexVersions } from '../store/search-index-versions';
import type { SearchIndexing } from './search-indexing';

/** Whether the current version may serve searches, what this run indexed, and while it is rebuilt, how far. */
export interface MigrationProgress {
  complete: boolean;
  indexed: number;
  rebuild?: RebuildState;
}

/**
 * Brings the current version of the search index into being at deploy: its tables, and when another
 * version serves, a rebuild beside it from the table (the record), project by project, while that one
 * goes on answering searches. Each version's tables are new, so nothing an older projection wrote is
 * kept. The stream's indexer writes the current version meanwhile (the version guard settles its races
 * with the rebuild). A run stops when `keepGoing` says so; the next goes on where it stopped.
 * Once searches are served by the current version, `SearchIndexVersions.retire` drops the others.
 */
export class SearchIndexMigration {
  constructor(
    private readonly versions: SearchIndexVersions,
    private readonly indexing: SearchIndexing,
  ) {}

  async migrate(keepGoing: () => boolean = () => true): Promise<MigrationProgress> {
    let indexed = 0;
    for (let ready = await this.versions.prepare(); !ready; ) {
      const { next } = await this.versions.rebuildState();
      if (next) {
        // The engine's statistics once, when the version becomes ready.
        const run = await this.indexing.reindex(next.projectKey, { cursor: next.cursor, keepGoing, analyze: false });
        await this.versions.recordProgress(next.projectKey, run.cursor);
        indexed += run.indexed;
      } else ready = await this.versions.finish();
      if (!ready && !keepGoing()) return { complete: false, indexed, rebuild: await this.versions.rebuildState() };
    }
    return { complete: true, indexed };
  }
}
