/** The search engine's database in the cluster, and the two users the functions sign in as (IAM authentication). */
export const SEARCH_DATABASE_NAME = 'search';
export const SEARCH_DATABASE_USERS = {
  /** search-resources: reads the index, SELECT only. */
  reader: 'search_reader',
  /** index-changes: owns the index's tables (it creates them: PostgresSearchIndexVersions.prepare) and writes them. */
  writer: 'search_writer',
} as const;

const { reader, writer } = SEARCH_DATABASE_USERS;

/** Seconds after which the engine closes a connection no statement used (Lambda freezes instances with theirs open). */
export const IDLE_SESSION_TIMEOUT_SECONDS = 60;

/**
 * The users, run once per deploy by the cluster's master user (Aurora's: CREATEROLE, not a
 * superuser) as one statement, since the RDS Data API takes one per call. Idempotent. `rds_iam`
 * makes a user sign in with an IAM token only. Each user may hold as many connections as its
 * function may run instances (infra/search-connection-budget.ts), so searches never take the
 * indexer's, and the engine closes idle ones: a frozen instance's connection would otherwise stay,
 * using a slot and keeping the cluster from pausing. The reader gets SELECT on every table the
 * writer has and creates later, in any schema (default privileges), which only the writer can
 * declare: the master acts as it inside this transaction only, so no sign-in ever finds the master
 * a member of an IAM-only role.
 */
export function searchDatabaseUsersSql(budget: { indexer: number; search: number }): string {
  return `DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${writer}') THEN CREATE ROLE ${writer} LOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${reader}') THEN CREATE ROLE ${reader} LOGIN; END IF;
  GRANT rds_iam TO ${writer}, ${reader};
  ALTER ROLE ${writer} CONNECTION LIMIT ${Math.trunc(budget.indexer)};
  ALTER ROLE ${reader} CONNECTION LIMIT ${Math.trunc(budget.search)};
  ALTER ROLE ${writer} SET idle_session_timeout = '${IDLE_SESSION_TIMEOUT_SECONDS}s';
  ALTER ROLE ${reader} SET idle_session_timeout = '${IDLE_SESSION_TIMEOUT_SECONDS}s';
  -- CREATE on the database: the writer creates the trusted extensions the index uses (pg_trgm, fuzzystrmatch) and its versions' schemas.
  EXECUTE format('GRANT CONNECT, CREATE ON DATABASE %I TO ${writer}', current_database());
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO ${reader}', current_database());
  GRANT USAGE, CREATE ON SCHEMA public TO ${writer};
  GRANT USAGE ON SCHEMA public TO ${reader};
  GRANT ${writer} TO CURRENT_USER WITH INHERIT FALSE, SET TRUE;
  SET LOCAL ROLE ${writer};
  ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO ${reader};
  GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${reader};
  RESET ROLE;
  REVOKE ${writer} FROM CURRENT_USER;
END $$`;
}
