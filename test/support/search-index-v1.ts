import type pg from 'pg';

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
