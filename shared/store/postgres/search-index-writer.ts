import type pg from 'pg';
import { resourceJsonSchema } from '../../domain/resource-fields';
import { FieldCatalog, letters, projectResource, type ProjectedValue, type ResourceProjection } from '../../domain/search';
import type { IndexChange, SearchIndexWriter } from '../search-index';
import { answeredBy } from './engine-errors';
import { SEARCH_SCHEMA } from './search-schema';
import { digitsOf, MAX_WORD_LENGTH, occurrencesOf, signatureOf } from './text-search';

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
  INSERT INTO search_postings (project_key, word, seq, occurrences)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[])`;
const INSERT_VALUES = `
  INSERT INTO search_values (project_key, seq, field, number, text, occurrences, smallest, previous)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::float8[], $5::text[], $6::int[], $7::bool[], $8::float8[])`;
const INSERT_WORDS = `
  INSERT INTO search_words (project_key, word, length, digits, signature)
  SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::bigint[])
  ON CONFLICT DO NOTHING`;

type Put = Extract<IndexChange, { kind: 'put' }>;
type Delete = Extract<IndexChange, { kind: 'delete' }>;

export class PostgresSearchIndexWriter implements SearchIndexWriter {
  private readonly fields = new FieldCatalog(resourceJsonSchema());

  constructor(private readonly pool: pg.Pool) {}

  async ensureSchema(): Promise<void> {
    for (const statement of SEARCH_SCHEMA) await this.pool.query(statement);
  }

  /** Sampled, so seconds at any size; the visibility map that index-only scans need is left to autovacuum (a pass over what was written). */
  async analyze(): Promise<void> {
    await this.pool.query('ANALYZE search_resources, search_postings, search_values, search_words');
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
    const client = await this.pool.connect();
    let failure: Error | undefined;
    try {
      await client.query('BEGIN');
      const written: Written[] = [];
      const put = puts.map((change) => {
        const { id, version, createdAt, lastModifiedAt } = change.resource;
        return [change.projectKey, id, version, createdAt, lastModifiedAt, projections.get(keyOf(change.projectKey, id))!.words.length];
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
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      failure = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection that failed a batch is not given back: it may be broken, or still answering the batch.
      client.release(failure);
    }
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

/**
 * Each resource's distinct values per field, with how often it holds each (range facets count them
 * all): the smallest of each kind marked, each number with the one before it.
 */
async function insertValues(client: pg.PoolClient, indexed: readonly Indexed[]): Promise<void> {
  const rows = indexed.flatMap(({ projectKey, seq, projection }) =>
    distinctValuesByField(projection.values).flatMap((values) =>
      values.map(({ value, occurrences }, index) => {
        const before = index > 0 ? values[index - 1]!.value : undefined;
        const smallest = kindOf(value) !== 'presence' && (before === undefined || kindOf(before) !== kindOf(value));
        const previous = value.number !== undefined && !smallest ? before!.number! : null;
        return [projectKey, seq, value.field, value.number ?? null, value.text ?? null, occurrences, smallest, previous];
      }),
    ),
  );
  if (rows.length > 0) await client.query(INSERT_VALUES, columnsOf(rows));
}

/** Per field, its distinct values with their occurrences: numbers ascending, then texts, then the presence entry (neither). */
function distinctValuesByField(values: readonly ProjectedValue[]): { value: ProjectedValue; occurrences: number }[][] {
  const byField = new Map<string, Map<string, { value: ProjectedValue; occurrences: number }>>();
  for (const value of values) {
    const distinct = byField.get(value.field) ?? new Map<string, { value: ProjectedValue; occurrences: number }>();
    byField.set(value.field, distinct);
    const key = JSON.stringify([value.number, value.text]);
    const entry = distinct.get(key);
    if (entry) entry.occurrences++;
    else distinct.set(key, { value, occurrences: 1 });
  }
  return [...byField.values()].map((distinct) => [...distinct.values()].sort((a, b) => ascending(a.value, b.value)));
}

const KINDS = ['number', 'text', 'presence'] as const;
const kindOf = (value: ProjectedValue) => (value.number !== undefined ? 'number' : value.text !== undefined ? 'text' : 'presence');

function ascending(a: ProjectedValue, b: ProjectedValue): number {
  if (kindOf(a) !== kindOf(b)) return KINDS.indexOf(kindOf(a)) - KINDS.indexOf(kindOf(b));
  if (a.number !== undefined) return a.number - b.number!;
  return a.text === b.text ? 0 : a.text! < b.text! ? -1 : 1;
}

async function insertPostings(client: pg.PoolClient, indexed: readonly Indexed[]): Promise<void> {
  const rows = indexed.flatMap(({ projectKey, seq, projection }) => [...occurrencesOf(projection.words)].map(([word, occurrences]) => [projectKey, word, seq, occurrences]));
  if (rows.length > 0) await client.query(INSERT_POSTINGS, columnsOf(rows));
}

/** The batch's distinct words per project, in key order; longer ones never take part in fuzzy matching. */
async function insertWords(client: pg.PoolClient, indexed: readonly Indexed[]): Promise<void> {
  const words = new Map<string, unknown[]>();
  for (const { projectKey, projection } of indexed) {
    for (const word of projection.words) {
      const key = keyOf(projectKey, word);
      const length = words.has(key) ? undefined : letters(word).length;
      if (length !== undefined && length <= MAX_WORD_LENGTH) words.set(key, [projectKey, word, length, digitsOf(word), signatureOf(word)]);
    }
  }
  const rows = [...words.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  if (rows.length > 0) await client.query(INSERT_WORDS, columnsOf(rows));
}

/** Rows as the arrays of their columns, one per parameter of an `unnest` insert. */
const columnsOf = (rows: readonly unknown[][]) => rows[0]!.map((_, column) => rows.map((row) => row[column]));

/**
 * The one change per resource that applying the batch in order would leave: the highest version,
 * a delete over a put of the same version. In key order.
 */
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
