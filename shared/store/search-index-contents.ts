/** A resource the search index holds (not deleted), at the version it holds. */
export interface IndexedVersion {
  id: string;
  version: number;
}

/**
 * What the search index holds of a project, read back: the reindex compares it with the table to
 * find resources the index still shows that the table no longer has (deleted while the feed was broken).
 */
export interface SearchIndexContents {
  /** Up to `limit` resources of the project the index holds, in id order, after `afterId` when given. */
  indexedVersions(projectKey: string, afterId: string | undefined, limit: number): Promise<IndexedVersion[]>;
}
