import type pg from 'pg';
import type { IndexChange, SearchIndexWriter } from '../search-index';

/**
 * The search index's tables. `search_resources` holds one row per resource ever indexed: its
 * projection (the fields search reads) and version, or, once deleted, only a marker at the version
 * it had (`deleted`), so that a late or repeated older change cannot bring it back.
 */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS search_resources (
     project_key text NOT NULL,
     id text NOT NULL,
     version integer NOT NULL,
     deleted boolean NOT NULL DEFAULT false,
     created_at timestamptz,
     last_modified_at timestamptz,
     document jsonb,
     PRIMARY KEY (project_key, id)
   )`,
];

/** A put or a delete, written only over an older version (a delete also over its own version: the resource as it was when deleted). */
const PUT = `
  INSERT INTO search_resources AS r (project_key, id, version, deleted, created_at, last_modified_at, document)
  VALUES ($1, $2, $3, false, $4, $5, $6)
  ON CONFLICT (project_key, id) DO UPDATE
    SET version = excluded.version, deleted = false, created_at = excluded.created_at,
        last_modified_at = excluded.last_modified_at, document = excluded.document
    WHERE r.version < excluded.version`;
const DELETE = `
  INSERT INTO search_resources AS r (project_key, id, version, deleted)
  VALUES ($1, $2, $3, true)
  ON CONFLICT (project_key, id) DO UPDATE
    SET version = excluded.version, deleted = true, created_at = NULL, last_modified_at = NULL, document = NULL
    WHERE r.version <= excluded.version`;

export class PostgresSearchIndexWriter implements SearchIndexWriter {
  constructor(private readonly pool: pg.Pool) {}

  async ensureSchema(): Promise<void> {
    for (const statement of SCHEMA) await this.pool.query(statement);
  }

  async apply(changes: readonly IndexChange[]): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const change of changes) {
        if (change.kind === 'put') {
          const { id, version, createdAt, lastModifiedAt } = change.resource;
          await client.query(PUT, [change.projectKey, id, version, createdAt, lastModifiedAt, JSON.stringify(change.resource)]);
        } else {
          await client.query(DELETE, [change.projectKey, change.id, change.version]);
        }
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
