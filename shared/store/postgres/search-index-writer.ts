import type pg from 'pg';
import { resourceJsonSchema } from '../../domain/resource-fields';
import { FieldCatalog, letters, MAX_WORD_LENGTH, projectResource, STEMMING_DICTIONARIES, type ResourceProjection } from '../../domain/search';
import type { IndexChange, SearchIndexWriter } from '../search-index';
import { answeredBy } from './engine-errors';
import { digitsOf, indexedWord, markedValues, signatureOf } from './search-schema';
import { inTransaction } from './transaction';

/**
 * Puts are written only over an older version; a delete also over its own version (the resource
 * as it was when deleted). The rows written are returned: only those resources get new values.
 */
const PUT = `
  INSERT INTO search_resources AS r (project_key, id, version, deleted, created_at, last_modified_at, word_count)
  SELECT project_key, id, version, false, created_at, last_modified_at, word_count
  FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::int[])
    AS change (project_key, id, version, created_at, last_modified_at, word_count)
  ON CONFLICT (project_key, id) DO UPDATE
    SET version = excluded.version, deleted = false, created_at = excluded.created_at,
        last_modified_at = excluded.last_modified_at, word_count = excluded.word_count
    WHERE r.version < excluded.version
  RETURNING project_key, id, seq`;
const DELETE = `
  INSERT INTO search_resources AS r (project_key, id, version, deleted)
  SELECT project_key, id, version, true FROM unnest($1::text[], $2::text[], $3::int[]) AS change (project_key, id, version)
  ON CONFLICT (project_key, id) DO UPDATE
    SET version = excluded.version, deleted = true, created_at = NULL, last_modified_at = NULL, word_count = NULL
    WHERE r.version <= excluded.version
  RETURNING project_key, id, seq`;
const CLEAR_VALUES = 'DELETE FROM search_values WHERE seq = ANY($1::bigint[])';
const CLEAR_POSTINGS = 'DELETE FROM search_postings WHERE seq = ANY($1::bigint[])';
const INSERT_POSTINGS = `
  INSERT INTO search_postings (project_key, word, seq, field, occurrences)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::int[])`;
const INSERT_VALUES = `
  INSERT INTO search_values (project_key, seq, field, number, text, lowered, occurrences, smallest, previous)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::float8[], $5::text[], $6::text[], $7::int[], $8::bool[], $9::float8[])`;
/** New words enter the dictionary with their stems, those of words without digits (isStemmable) that differ from the word. */
const INSERT_WORDS = `
  WITH added AS (
    INSERT INTO search_words (project_key, word, length, digits, signature)
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::bigint[])
    ON CONFLICT DO NOTHING
    RETURNING project_key, word, digits)
  INSERT INTO search_stems (project_key, dictionary, stem, word)
  SELECT added.project_key, stemmer.dictionary::text, stemmed.stem, added.word
  FROM added CROSS JOIN unnest($6::regdictionary[]) AS stemmer (dictionary)
    CROSS JOIN LATERAL (SELECT (ts_lexize(stemmer.dictionary, added.word))[1] AS stem) AS stemmed
  WHERE added.digits = 0 AND stemmed.stem <> added.word`;

type Put = Extract<IndexChange, { kind: 'put' }>;
type Delete = Extract<IndexChange, { kind: 'delete' }>;

export class PostgresSearchIndexWriter implements SearchIndexWriter {
  private readonly fields = new FieldCatalog(resourceJsonSchema());

  constructor(private readonly pool: pg.Pool) {}

  /** Sampled, so seconds at any size; the visibility map that index-only scans need is left to autovacuum (a pass over what was written). */
  async analyze(): Promise<void> {
    await this.pool.query('ANALYZE search_resources, search_postings, search_values, search_words, search_stems');
  }

  /**
   * One transaction per batch, a few statements whatever its size. Rows are written in key order,
   * so two batches touching the same resources (the stream beside a reindex) wait on each other
   * instead of deadlocking. An engine that did not answer: NoAnswerError.
   */
  apply(changes: readonly IndexChange[]): Promise<void> {
    return answeredBy(() => this.write(changes));
  }

  private async write(changes: readonly IndexChange[]): Promise<void> {
    const latest = latestChanges(changes);
    const puts = latest.filter((change): change is Put => change.kind === 'put');
    const deletes = latest.filter((change): change is Delete => change.kind === 'delete');
    const projections = new Map(puts.map((put) => [keyOf(put.projectKey, put.resource.id), projectResource(put.resource, this.fields)]));
    // A connection that failed a batch is not given back: it may be broken, or still answering the batch.
    await inTransaction(this.pool, 'BEGIN', () => true, async (client) => {
      const written: Written[] = [];
      const put = puts.map((change) => {
        const { id, version, createdAt, lastModifiedAt } = change.resource;
        const { texts } = projections.get(keyOf(change.projectKey, id))!;
        return [change.projectKey, id, version, createdAt, lastModifiedAt, texts.reduce((count, text) => count + text.words.length, 0)];
      });
      if (put.length > 0) written.push(...(await client.query<Written>(PUT, columnsOf(put))).rows);
      const deleted = deletes.map((change) => [change.projectKey, change.id, change.version]);
      if (deleted.length > 0) written.push(...(await client.query<Written>(DELETE, columnsOf(deleted))).rows);
      if (written.length > 0) {
        const seqs = written.map((row) => row.seq);
        await client.query(CLEAR_VALUES, [seqs]);
        await client.query(CLEAR_POSTINGS, [seqs]);
        const indexed = written.flatMap((row) => {
          const projection = projections.get(keyOf(row.project_key, row.id));
          return projection ? [{ projectKey: row.project_key, seq: row.seq, projection }] : [];
        });
        await insertValues(client, indexed);
        await insertPostings(client, indexed);
        await insertWords(client, indexed);
      }
    });
  }
}

/** A resource row the batch wrote; `seq` is a bigint, which pg hands over as text. */
interface Written {
  project_key: string;
  id: string;
  seq: string;
}

interface Indexed {
  projectKey: string;
  seq: string;
  projection: ResourceProjection;
}

/** Each resource's distinct values per field, with how often it holds each (range facets count them all), marked (markedValues). */
async function insertValues(client: pg.PoolClient, indexed: readonly Indexed[]): Promise<void> {
  const rows = indexed.flatMap(({ projectKey, seq, projection }) =>
    markedValues(projection.values).map(({ field, number, text, occurrences, smallest, previous }) => {
      const lowered = text?.toLowerCase();
      return [projectKey, seq, field, number ?? null, text ?? null, lowered === text ? null : lowered, occurrences, smallest, previous ?? null];
    }),
  );
  if (rows.length > 0) await client.query(INSERT_VALUES, columnsOf(rows));
}

/** Each distinct word of a resource per field it is at, and how often (the score counts them). */
async function insertPostings(client: pg.PoolClient, indexed: readonly Indexed[]): Promise<void> {
  const rows = indexed.flatMap(({ projectKey, seq, projection }) => {
    const occurrences = new Map<string, { word: string; field: string; count: number }>();
    for (const { field, words } of projection.texts) {
      for (const word of words.map(indexedWord)) {
        const key = `${word}\u0000${field}`;
        const held = occurrences.get(key) ?? occurrences.set(key, { word, field, count: 0 }).get(key)!;
        held.count++;
      }
    }
    return [...occurrences.values()].map(({ word, field, count }) => [projectKey, word, seq, field, count]);
  });
  if (rows.length > 0) await client.query(INSERT_POSTINGS, columnsOf(rows));
}

/** The batch's distinct words per project, in key order; longer ones never take part in fuzzy, stem or prefix matching. */
async function insertWords(client: pg.PoolClient, indexed: readonly Indexed[]): Promise<void> {
  const words = new Map<string, unknown[]>();
  for (const { projectKey, projection } of indexed) {
    for (const word of projection.texts.flatMap((text) => text.words)) {
      const key = keyOf(projectKey, word);
      const length = words.has(key) ? undefined : letters(word).length;
      if (length !== undefined && length <= MAX_WORD_LENGTH) words.set(key, [projectKey, word, length, digitsOf(word), signatureOf(word)]);
    }
  }
  const rows = [...words.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  if (rows.length > 0) await client.query(INSERT_WORDS, [...columnsOf(rows), STEMMING_DICTIONARIES]);
}

/** Rows as the arrays of their columns, one per parameter of an `unnest` insert. */
const columnsOf = (rows: readonly unknown[][]) => rows[0]!.map((_, column) => rows.map((row) => row[column]));

/** The one change per resource that applying the batch in order would leave: the highest version, a delete over a put of the same version. In key order. */
function latestChanges(changes: readonly IndexChange[]): IndexChange[] {
  const latest = new Map<string, IndexChange>();
  for (const change of changes) {
    const key = keyOf(change.projectKey, idOf(change));
    const current = latest.get(key);
    if (!current || versionOf(change) > versionOf(current) || (versionOf(change) === versionOf(current) && change.kind === 'delete')) {
      latest.set(key, change);
    }
  }
  return [...latest.keys()].sort().map((key) => latest.get(key)!);
}

const idOf = (change: IndexChange) => (change.kind === 'put' ? change.resource.id : change.id);
const versionOf = (change: IndexChange) => (change.kind === 'put' ? change.resource.version : change.version);
const keyOf = (projectKey: string, id: string) => `${projectKey}\u0000${id}`;
