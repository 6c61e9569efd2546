import type pg from 'pg';
import { forEachString } from '../../shared/domain/search/document-values';
import type { IndexChange } from '../../shared/store/search-index';

/**
 * Version 1 of the search index as it was deployed, kept here because the product's DDL moves on:
 * the tests build an index at it (in `public`, where version 1 lives) and upgrade it. Verbatim, but
 * for `${TEXT_PREFIX_LENGTH}`, written out (200).
 */
export const SEARCH_SCHEMA_V1 = [
  'CREATE EXTENSION IF NOT EXISTS fuzzystrmatch',
  `CREATE TABLE IF NOT EXISTS search_resources (
     project_key text NOT NULL,
     id text COLLATE "C" NOT NULL,
     version integer NOT NULL,
     deleted boolean NOT NULL DEFAULT false,
     created_at timestamptz,
     last_modified_at timestamptz,
     word_count integer,
     seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
     PRIMARY KEY (project_key, id)
   )`,
  'CREATE INDEX IF NOT EXISTS search_resources_live ON search_resources (project_key) WHERE NOT deleted',
  `CREATE TABLE IF NOT EXISTS search_postings (
     project_key text NOT NULL,
     word text COLLATE "C" NOT NULL,
     seq bigint NOT NULL,
     occurrences integer NOT NULL,
     PRIMARY KEY (project_key, word, seq)
   )`,
  'CREATE INDEX IF NOT EXISTS search_postings_resource ON search_postings (seq)',
  `CREATE TABLE IF NOT EXISTS search_values (
     project_key text NOT NULL,
     seq bigint NOT NULL,
     field text NOT NULL,
     number double precision,
     text text COLLATE "C",
     occurrences integer NOT NULL,
     smallest boolean NOT NULL,
     previous double precision,
     prefix text COLLATE "C" GENERATED ALWAYS AS (left(text, 200)) STORED
   )`,
  'CREATE INDEX IF NOT EXISTS search_values_resource ON search_values (seq, field)',
  'CREATE INDEX IF NOT EXISTS search_values_number ON search_values (project_key, field, number) INCLUDE (seq, occurrences, smallest, previous) WHERE number IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS search_values_text ON search_values (project_key, field, prefix) INCLUDE (seq, smallest) WHERE text IS NOT NULL',
  `CREATE TABLE IF NOT EXISTS search_words (
     project_key text NOT NULL,
     word text COLLATE "C" NOT NULL,
     length integer NOT NULL,
     digits integer NOT NULL,
     signature bigint NOT NULL,
     PRIMARY KEY (project_key, word)
   )`,
  'CREATE INDEX IF NOT EXISTS search_words_length ON search_words (project_key, length, digits) INCLUDE (signature, word)',
];

/**
 * A search as version 1's search function runs it, in short: what it reads from each of the four
 * tables (the live resources holding a word, their values, the project's dictionary). The
 * product's own search moves on with the product's tables; this one keeps reading version 1's.
 */
export async function searchV1(pool: pg.Pool, projectKey: string, word: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT r.id FROM search_resources r
     WHERE r.project_key = $1 AND NOT r.deleted
       AND EXISTS (SELECT FROM search_postings p WHERE p.project_key = $1 AND p.word = $2 AND p.seq = r.seq)
       AND EXISTS (SELECT FROM search_values v WHERE v.seq = r.seq AND v.smallest)
       AND EXISTS (SELECT FROM search_words w WHERE w.project_key = $1 AND w.word = $2)
     ORDER BY r.id`,
    [projectKey, word],
  );
  return rows.map((row) => row.id);
}

/**
 * What version 1's writer wrote of a batch, in short (its own code went with version 2): each
 * resource at a newer version, a delete as a marker; the resource's words (lowercased, not folded,
 * as version 1 tokenized), its version as a value, its words in the dictionary. Enough for searchV1,
 * and for a rebuild to list the projects version 1 holds.
 */
export async function writeV1(pool: pg.Pool, changes: readonly IndexChange[]): Promise<void> {
  for (const change of changes) {
    const [id, version, deleted] = change.kind === 'put' ? [change.resource.id, change.resource.version, false] : [change.id, change.version, true];
    const words: string[] = [];
    if (change.kind === 'put') forEachString(change.resource, (text) => words.push(...(text.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [])));
    const { rows } = await pool.query<{ seq: string }>(
      `INSERT INTO search_resources AS r (project_key, id, version, deleted, word_count) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (project_key, id) DO UPDATE SET version = excluded.version, deleted = excluded.deleted, word_count = excluded.word_count
         WHERE r.version < excluded.version OR (excluded.deleted AND r.version = excluded.version)
       RETURNING seq`,
      [change.projectKey, id, version, deleted, deleted ? null : words.length],
    );
    const seq = rows[0]?.seq;
    if (seq === undefined) continue;
    await pool.query('DELETE FROM search_postings WHERE seq = $1', [seq]);
    await pool.query('DELETE FROM search_values WHERE seq = $1', [seq]);
    if (deleted) continue;
    const occurrences = new Map<string, number>();
    for (const word of words) occurrences.set(word, (occurrences.get(word) ?? 0) + 1);
    for (const [word, count] of occurrences) {
      await pool.query('INSERT INTO search_postings VALUES ($1, $2, $3, $4)', [change.projectKey, word, seq, count]);
      await pool.query('INSERT INTO search_words VALUES ($1, $2, $3, 0, 0) ON CONFLICT DO NOTHING', [change.projectKey, word, [...word].length]);
    }
    await pool.query('INSERT INTO search_values (project_key, seq, field, number, occurrences, smallest) VALUES ($1, $2, $3, $4, 1, true)', [change.projectKey, seq, 'version', version]);
  }
}
