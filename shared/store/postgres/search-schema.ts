/**
 * The version of the index: its tables, indexes and what a resource projects to. A release that
 * changes any of them raises it, and the deploy builds the new version beside the old one.
 */
export const SEARCH_INDEX_VERSION = 1;

/** Where a version's tables live: version 1, before versions were kept apart, in `public`; each later one in a schema of its own. */
export const schemaOf = (version: number) => (version === 1 ? 'public' : `search_v${version}`);

/** A connection's `search_path` for a version: its own tables, then `public`, which holds the extensions every version shares. */
export const searchPathOf = (version: number) => (version === 1 ? 'public' : `${schemaOf(version)},public`);

/** How many characters of a text `search_values.prefix` holds. */
export const TEXT_PREFIX_LENGTH = 200;

/**
 * The search index's tables, created where missing (idempotent) in the version's schema (the first
 * of the connection's `search_path`). Changing them, or what a resource projects to, raises
 * SEARCH_INDEX_VERSION (test/integration/search-index-versions.test.ts holds each version's fingerprint).
 *
 * - `search_resources`: one row per resource ever indexed, with its version and how many words
 *   it holds, or, once deleted, only a marker at the version it had (`deleted`), so that a late
 *   or repeated older change cannot bring it back. `seq` stands for the resource in the other
 *   tables: a number hashes, joins and counts faster than its id. A total counts `search_resources_live`.
 * - `search_postings`: which resources hold a word, and how often (the full-text match and its rank).
 * - `search_values`: the resource's distinct values at every field the schema knows (filters,
 *   facets, sorts), with how often it holds each; a row without number or text says the field is present.
 *   `smallest` marks the resource's smallest value at the field and `previous` holds, on a number,
 *   the resource's next smaller one: so a facet counts each resource once in a single pass over the
 *   field's index (with a value: its smallest; in a range: its smallest value inside the range).
 * - `search_words`: each project's words, for fuzzy terms to find their candidates by length, count
 *   of digits, the characters they hold and edit distance. Insert-only: a word no resource holds any more costs a candidate matching nothing.
 *
 * Ids, texts and words compare in the "C" collation, by code point, whatever the database's locale.
 * `prefix` keeps texts of any length indexable (a btree entry holds at most about 2.7 kB). The
 * value indexes include the resource, so filters and facets over a field read only its index.
 */
export const SEARCH_SCHEMA = [
  // In public: a version's schema is dropped with everything in it once the next one serves.
  'CREATE EXTENSION IF NOT EXISTS fuzzystrmatch SCHEMA public',
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
     prefix text COLLATE "C" GENERATED ALWAYS AS (left(text, ${TEXT_PREFIX_LENGTH})) STORED
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
