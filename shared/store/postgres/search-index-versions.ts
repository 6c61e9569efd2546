import type pg from 'pg';
import type { RebuildState, SearchIndexVersions } from '../search-index-versions';
import { SEARCH_INDEX_VERSION, SEARCH_SCHEMA, schemaOf } from './search-schema';
import { inTransaction } from './transaction';

/** What every version shares, in `public`: which versions exist, and each rebuild's progress per project. */
const RECORDS = [
  'CREATE TABLE IF NOT EXISTS public.search_index_versions (version integer PRIMARY KEY, ready boolean NOT NULL)',
  `CREATE TABLE IF NOT EXISTS public.search_index_rebuilds (version integer, project_key text, cursor text, done boolean NOT NULL DEFAULT false,
     PRIMARY KEY (version, project_key))`,
  // Version 1 was there before versions were recorded: its last index says its tables were made whole.
  "INSERT INTO public.search_index_versions SELECT 1, true WHERE to_regclass('public.search_words_length') IS NOT NULL ON CONFLICT DO NOTHING",
];
/** Another version's rebuild missed what this code wrote meanwhile (its deploy rolled back): it goes over every project again, rewriting only what changed. */
const RESTART_OTHERS = 'UPDATE public.search_index_rebuilds SET cursor = NULL, done = false WHERE version <> $1 AND (done OR cursor IS NOT NULL)';
/** The newest other ready version (older, or newer after a rollback): the projects to rebuild are those it holds, in `search_resources`. */
const SOURCE = 'SELECT version FROM public.search_index_versions WHERE ready AND version <> $1 ORDER BY version DESC LIMIT 1';
const listedFrom = (source: number) => `INSERT INTO public.search_index_rebuilds (version, project_key)
  SELECT DISTINCT $1::integer, project_key FROM ${schemaOf(source)}.search_resources ON CONFLICT DO NOTHING`;

/**
 * The versions of the search index in PostgreSQL, each where `schemaOf` says. The pool's
 * `search_path` names the current one's, so its tables go unqualified. `version` and `schema` are
 * the current version's (a test builds another beside it).
 */
export class PostgresSearchIndexVersions implements SearchIndexVersions {
  constructor(
    private readonly pool: pg.Pool,
    private readonly version = SEARCH_INDEX_VERSION,
    private readonly schema = SEARCH_SCHEMA,
  ) {}

  /** One transaction: a statement that fails leaves nothing of the version. */
  prepare(): Promise<boolean> {
    return this.inTransaction(async (client) => {
      for (const statement of RECORDS) await client.query(statement);
      await client.query(RESTART_OTHERS, [this.version]);
      const recorded = await client.query<{ ready: boolean }>('SELECT ready FROM public.search_index_versions WHERE version = $1', [this.version]);
      if (recorded.rows[0]) return recorded.rows[0].ready;
      const schema = schemaOf(this.version);
      // The reader gets SELECT on the tables through the owner's default privileges.
      if (schema !== 'public') await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}; GRANT USAGE ON SCHEMA ${schema} TO PUBLIC`);
      for (const statement of this.schema) await client.query(statement);
      const ready = !(await this.listProjects(client));
      await client.query('INSERT INTO public.search_index_versions VALUES ($1, $2)', [this.version, ready]);
      return ready;
    });
  }

  async rebuildState(): Promise<RebuildState> {
    const { rows } = await this.pool.query<{ project_key: string; cursor: string | null; done: boolean; done_count: number; projects: number }>(
      `SELECT project_key, cursor, done, count(*) FILTER (WHERE done) OVER ()::int AS done_count, count(*) OVER ()::int AS projects
       FROM public.search_index_rebuilds WHERE version = $1 ORDER BY done, project_key LIMIT 1`,
      [this.version],
    );
    const [first] = rows;
    const next = first && !first.done ? { projectKey: first.project_key, cursor: first.cursor ?? undefined } : undefined;
    return { next, done: first?.done_count ?? 0, projects: first?.projects ?? 0 };
  }

  async recordProgress(projectKey: string, cursor: string | undefined): Promise<void> {
    const values = [this.version, projectKey, cursor ?? null, cursor === undefined];
    await this.pool.query('UPDATE public.search_index_rebuilds SET cursor = $3, done = $4 WHERE version = $1 AND project_key = $2', values);
  }

  /** Projects the other version gained after they were listed (written there by the code before, still running) are rebuilt too. */
  finish(): Promise<boolean> {
    return this.inTransaction(async (client) => {
      if (await this.listProjects(client)) return false;
      // Statistics for the bulk load, or the engine would plan it as the empty tables it was.
      await client.query('ANALYZE search_resources, search_postings, search_values, search_words');
      await client.query('UPDATE public.search_index_versions SET ready = true WHERE version = $1', [this.version]);
      await client.query('DELETE FROM public.search_index_rebuilds WHERE version = $1', [this.version]);
      return true;
    });
  }

  /** Version 1's tables are those in `public`; the records stay. */
  retire(): Promise<number[]> {
    return this.inTransaction(async (client) => {
      const { rows } = await client.query<{ version: number; ready: boolean }>('SELECT version, ready FROM public.search_index_versions');
      if (!rows.some(({ version, ready }) => version === this.version && ready)) throw new Error(`Search index version ${this.version} is not ready: migrate before retiring the others`);
      const others = rows.map(({ version }) => version).filter((version) => version !== this.version);
      for (const version of others) {
        const tables = ['search_resources', 'search_postings', 'search_values', 'search_words'].map((name) => `public.${name}`);
        await client.query(version === 1 ? `DROP TABLE IF EXISTS ${tables.join(', ')}` : `DROP SCHEMA IF EXISTS ${schemaOf(version)} CASCADE`);
      }
      await client.query('DELETE FROM public.search_index_versions WHERE version <> $1', [this.version]);
      await client.query('DELETE FROM public.search_index_rebuilds WHERE version <> $1', [this.version]);
      return others;
    });
  }

  /** Lists the projects of the other ready version that are not listed yet: whether there is such a version, and it added any. */
  private async listProjects(client: pg.PoolClient): Promise<boolean> {
    const source = (await client.query<{ version: number }>(SOURCE, [this.version])).rows[0]?.version;
    return source !== undefined && (await client.query(listedFrom(source), [this.version])).rowCount! > 0;
  }

  /** Under a lock that every change of the records and tables takes: two instances preparing at once would collide in the catalog. */
  private inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, 'BEGIN; SELECT pg_advisory_xact_lock(1936024424)', () => false, work);
  }
}
