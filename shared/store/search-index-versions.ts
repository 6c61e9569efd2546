/** Where the current version's rebuild stands: its next project (where it stopped, if it started), and how many are done of those listed. */
export interface RebuildState {
  next?: { projectKey: string; cursor?: string };
  done: number;
  projects: number;
}

/** The search index's versions in the engine, the current one this code's: their tables, which are ready, and the current one's rebuild per project, so that it runs in slices. */
export interface SearchIndexVersions {
  /** Creates the current version's tables where missing and records it: ready (true) when no other version is, else to be rebuilt from the projects the other holds. */
  prepare(): Promise<boolean>;
  rebuildState(): Promise<RebuildState>;
  /** Where a project's rebuild stopped; no cursor: done. */
  recordProgress(projectKey: string, cursor: string | undefined): Promise<void>;
  /** Lists the projects the other version gained meanwhile; none: the current version becomes ready (true). */
  finish(): Promise<boolean>;
  /** Drops every version but the current one, which must be ready; answers those dropped. */
  retire(): Promise<number[]>;
}
