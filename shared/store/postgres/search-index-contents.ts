import type pg from 'pg';
import type { IndexedVersion, SearchIndexContents } from '../search-index-contents';

/** The live rows of a project after an id, in id order: the primary key (project_key, id) answers it. */
const INDEXED_VERSIONS = `
  SELECT id, version FROM search_resources
  WHERE project_key = $1 AND id > $2 AND NOT deleted
  ORDER BY id
  LIMIT $3`;

export class PostgresSearchIndexContents implements SearchIndexContents {
  constructor(private readonly pool: pg.Pool) {}

  async indexedVersions(projectKey: string, afterId: string | undefined, limit: number): Promise<IndexedVersion[]> {
    const { rows } = await this.pool.query<IndexedVersion>(INDEXED_VERSIONS, [projectKey, afterId ?? '', limit]);
    return rows;
  }
}
