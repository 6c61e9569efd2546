import { createHash } from 'node:crypto';
import { letters, MAX_WORD_LENGTH, type ProjectedValue } from '../../domain/search';

/**
 * The version of the index: its tables, indexes and what a resource projects to. A release that
 * changes any of them raises it, and the deploy builds the new version beside the old one.
 */
export const SEARCH_INDEX_VERSION = 2;

/** Where a version's tables live: version 1, before versions were kept apart, in `public`; each later one in a schema of its own. */
export const schemaOf = (version: number) => (version === 1 ? 'public' : `search_v${version}`);

/** A connection's `search_path` for a version: its own tables, then `public`, which holds the extensions every version shares. */
export const searchPathOf = (version: number) => (version === 1 ? 'public' : `${schemaOf(version)},public`);

/**
 * Every table is analyzed again once 2% of it changed (PostgreSQL's default is 10%; Aurora's
 * autovacuum looks every 5 s), so that a project that grew since keeps being planned at its size:
 * believed small, it would be read by nested loops meant for a few rows.
 */
const FRESH_STATISTICS = 'autovacuum_analyze_scale_factor = 0.02';

/** How many characters of a text `search_values.prefix` holds. */
export const TEXT_PREFIX_LENGTH = 200;

/**
 * The search index's tables, created where missing (idempotent) in the version's schema (the first
 * of the connection's `search_path`). All of it is derived from the table's resources
 * (projection.ts): a reindex rebuilds it. Changing them, or what a resource projects to, raises
 * SEARCH_INDEX_VERSION (test/integration/search-index-versions.test.ts holds each version's fingerprint).
 *
 * - `search_resources`: one row per resource ever indexed, with its version and how many words
 *   it holds, or, once deleted, only a marker at the version it had (`deleted`), so that a late
 *   or repeated older change cannot bring it back. `seq` stands for the resource in the other
 *   tables: a number hashes, joins and counts faster than its id. A total counts `search_resources_live`.
 * - `search_postings`: which resources hold a word at which field, and how often (full text and
 *   its score). A resource's postings by word (`search_postings_resource`) answer "does it hold one
 *   of these words" for a resource another condition found.
 * - `search_values`: the resource's distinct values at every field the schema knows (filters,
 *   facets, sorts), with how often it holds each; see `markedValues` for `smallest` and
 *   `previous`. Instants are numbers (epoch milliseconds); `lowered` is a text lowercased as
 *   JavaScript does (PostgreSQL's lower() in the "C" collation folds ASCII only), where it differs.
 * - `search_words`: each project's dictionary, for fuzzy terms (`fuzzyCandidates`). Insert-only:
 *   a word no resource holds any more costs a candidate matching nothing.
 * - `search_stems`: for each dictionary word and stemmer (text-match.ts), the word's stem where it
 *   is not the word itself, written when the word enters the dictionary (`stemmedWords`).
 *
 * Ids, texts and words compare in the "C" collation, by code point, whatever the database's locale.
 * `prefix` keeps texts of any length indexable (a btree entry holds at most about 2.7 kB); a text
 * shorter than it is its prefix, so a facet groups them from the index alone, and reads the few
 * longer ones (`LONG_TEXT`) by their own index. The value indexes include the resource, so filters
 * and facets over a field read only its index.
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
   ) WITH (${FRESH_STATISTICS})`,
  'CREATE INDEX IF NOT EXISTS search_resources_live ON search_resources (project_key) WHERE NOT deleted',
  `CREATE TABLE IF NOT EXISTS search_postings (
     project_key text NOT NULL,
     word text COLLATE "C" NOT NULL,
     seq bigint NOT NULL,
     field text COLLATE "C" NOT NULL,
     occurrences integer NOT NULL,
     PRIMARY KEY (project_key, word, seq, field)
   ) WITH (${FRESH_STATISTICS})`,
  'CREATE INDEX IF NOT EXISTS search_postings_resource ON search_postings (seq, word)',
  `CREATE TABLE IF NOT EXISTS search_values (
     project_key text NOT NULL,
     seq bigint NOT NULL,
     field text NOT NULL,
     number double precision,
     text text COLLATE "C",
     lowered text COLLATE "C",
     occurrences integer NOT NULL,
     smallest boolean NOT NULL,
     previous double precision,
     prefix text COLLATE "C" GENERATED ALWAYS AS (left(text, ${TEXT_PREFIX_LENGTH})) STORED
   ) WITH (${FRESH_STATISTICS})`,
  'CREATE INDEX IF NOT EXISTS search_values_resource ON search_values (seq, field)',
  'CREATE INDEX IF NOT EXISTS search_values_number ON search_values (project_key, field, number) INCLUDE (seq, occurrences, smallest, previous) WHERE number IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS search_values_text ON search_values (project_key, field, prefix) INCLUDE (seq, smallest) WHERE text IS NOT NULL',
  `CREATE INDEX IF NOT EXISTS search_values_long_text ON search_values (project_key, field) INCLUDE (seq) WHERE length(text) >= ${TEXT_PREFIX_LENGTH}`,
  // So that the planner knows long texts are few, and reads them by their index.
  'CREATE STATISTICS IF NOT EXISTS search_values_text_length ON length(text) FROM search_values',
  `CREATE TABLE IF NOT EXISTS search_words (
     project_key text NOT NULL,
     word text COLLATE "C" NOT NULL,
     length integer NOT NULL,
     digits integer NOT NULL,
     signature bigint NOT NULL,
     PRIMARY KEY (project_key, word)
   ) WITH (${FRESH_STATISTICS})`,
  'CREATE INDEX IF NOT EXISTS search_words_length ON search_words (project_key, length, digits) INCLUDE (signature, word)',
  `CREATE TABLE IF NOT EXISTS search_stems (
     project_key text NOT NULL,
     dictionary text NOT NULL,
     stem text COLLATE "C" NOT NULL,
     word text COLLATE "C" NOT NULL,
     PRIMARY KEY (project_key, dictionary, stem, word)
   ) WITH (${FRESH_STATISTICS})`,
];

/** A value whose text may be longer than its prefix: the condition of the index `search_values_long_text`. */
export const LONG_TEXT = `length(v.text) >= ${TEXT_PREFIX_LENGTH}`;

/**
 * A word as the index keeps it: itself, or past MAX_WORD_LENGTH its digest (`~` is never part of a
 * word), since fuzzystrmatch compares words of up to 255 characters and a btree entry holds about
 * 2.7 kB. Such a word still matches exactly, never fuzzily, by stem or by prefix.
 */
export function indexedWord(word: string): string {
  return letters(word).length <= MAX_WORD_LENGTH ? word : `~${createHash('sha256').update(word).digest('hex')}`;
}

/**
 * The smallest value mark, so that a facet counts each resource once in a single pass over its
 * field's index, never grouping per resource. A resource's distinct values at a field are sorted
 * (numbers ascending, then texts, then the presence row, which holds neither): the first number
 * and the first text are `smallest`, and each other number holds the one before it (`previous`).
 * Then a resource with a value at the field has exactly one row `smallest`, and one with a number
 * in a range has exactly one row there that is `smallest` or whose `previous` lies below the range:
 * its smallest number in the range (`firstInRange`). The writer pays a sort per resource and field.
 */
export function markedValues(values: readonly ProjectedValue[]): (ProjectedValue & { occurrences: number; smallest: boolean; previous?: number })[] {
  const byField = new Map<string, Map<string, ProjectedValue & { occurrences: number }>>();
  for (const value of values) {
    const distinct = byField.get(value.field) ?? new Map<string, ProjectedValue & { occurrences: number }>();
    byField.set(value.field, distinct);
    const key = JSON.stringify([value.number, value.text]);
    const held = distinct.get(key);
    if (held) held.occurrences++;
    else distinct.set(key, { ...value, occurrences: 1 });
  }
  return [...byField.values()].flatMap((distinct) =>
    [...distinct.values()].sort(ascending).map((value, index, sorted) => {
      const before = sorted[index - 1];
      const smallest = kindOf(value) !== 'presence' && (before === undefined || kindOf(before) !== kindOf(value));
      return { ...value, smallest, ...(value.number !== undefined && !smallest ? { previous: before!.number! } : {}) };
    }),
  );
}

/** A resource's row is the first of its values in the range starting at `from` (a bound parameter; none: open). */
export const firstInRange = (from: string | undefined) => (from === undefined ? 'v.smallest' : `(v.smallest OR v.previous < ${from})`);

const KINDS = ['number', 'text', 'presence'] as const;
const kindOf = (value: ProjectedValue) => (value.number !== undefined ? 'number' : value.text !== undefined ? 'text' : 'presence');

function ascending(a: ProjectedValue, b: ProjectedValue): number {
  if (kindOf(a) !== kindOf(b)) return KINDS.indexOf(kindOf(a)) - KINDS.indexOf(kindOf(b));
  if (a.number !== undefined) return a.number - b.number!;
  return a.text === b.text ? 0 : a.text! < b.text! ? -1 : 1;
}

/**
 * The fuzzy candidates' bands: the dictionary words that may be within `edits` of `term`. An edit
 * changes a word's length and its count of digits by at most one, so the index reads only words
 * within `edits` of the term in both (ids, keys and dates, most of a dictionary, are digit-heavy);
 * of those, the characters they hold (`signatureOf`: an edit changes at most two bits) then
 * Levenshtein distance (at most twice the edits: a swap costs two there) pick candidates, cheapest
 * test first. The exact rule, a swap counting one edit, is the domain's (isWithinEditDistance).
 */
export function fuzzyCandidates(bind: (value: unknown) => string, project: string, term: string, edits: number): string {
  const length = letters(term).length;
  const lengths = Array.from({ length: 2 * edits + 1 }, (_, offset) => length - edits + offset);
  const digits = digitsOf(term);
  return `SELECT word, true AS fuzzy FROM search_words
    WHERE project_key = ${project} AND length = ANY(${bind(lengths)}::int[]) AND digits BETWEEN ${bind(digits - edits)} AND ${bind(digits + edits)}
      AND CASE WHEN bit_count((signature # ${bind(signatureOf(term))}::bigint)::bit(64)) <= ${bind(2 * edits)}
        THEN levenshtein_less_equal(word, ${bind(term)}, ${bind(2 * edits)}) <= ${bind(2 * edits)} ELSE false END`;
}

/** The words whose stem in `dictionary` is the term's: those `search_stems` holds, and the stem itself when it is its own stem (a word that is its own stem has no row there). */
export function stemmedWords(bind: (value: unknown) => string, project: string, term: string, dictionary: string): string {
  const [stemmer, word] = [`${bind(dictionary)}::text`, `${bind(term)}::text`];
  return `SELECT s.word, false AS fuzzy FROM search_stems s, (SELECT (ts_lexize(${stemmer}::regdictionary, ${word}))[1] AS stem) AS term
      WHERE s.project_key = ${project} AND s.dictionary = ${stemmer} AND s.stem = term.stem
    UNION ALL
    SELECT term.stem, false FROM (SELECT (ts_lexize(${stemmer}::regdictionary, ${word}))[1] AS stem) AS term
      WHERE (ts_lexize(${stemmer}::regdictionary, term.stem))[1] = term.stem`;
}

/** How many digits a word holds: an edit changes that by at most one, as it does the length. */
export function digitsOf(word: string): number {
  return word.match(/\p{N}/gu)?.length ?? 0;
}

/**
 * Which characters a word holds, as bits (a–z, 0–9, the rest hashed onto the other bits). An edit
 * changes at most two of them (a substitution takes one character away and brings another), so a
 * word within k edits of a term differs from it in at most 2k bits: a cheap test before the
 * edit distance. A signed 64-bit integer, as PostgreSQL's bigint holds it.
 */
export function signatureOf(word: string): string {
  let bits = 0n;
  for (const character of letters(word)) bits |= 1n << BigInt(bitOf(character));
  return BigInt.asIntN(64, bits).toString();
}

function bitOf(character: string): number {
  const code = character.codePointAt(0)!;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  if (code >= 0x30 && code <= 0x39) return 26 + code - 0x30;
  return 36 + (code % 28);
}

/**
 * The least string greater than every string starting with `prefix` (its last character raised by
 * one), so `text >= prefix AND text < upper` reads a prefix from a btree; undefined: no bound.
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const characters = letters(prefix);
  while (characters.length > 0) {
    const code = characters.pop()!.codePointAt(0)!;
    if (code < 0x10ffff) return characters.join('') + String.fromCodePoint(code === 0xd7ff ? 0xe000 : code + 1);
  }
  return undefined;
}
