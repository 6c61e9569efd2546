/** What the domain and its store refuse, independent of HTTP (see http/domain-errors.ts). */
export abstract class DomainError extends Error {}

export class ResourceNotFoundError extends DomainError {
  constructor(readonly description: string) {
    super(`${description} was not found.`);
  }
}

export class VersionConflictError extends DomainError {
  constructor(
    readonly expectedVersion: number | undefined,
    /** The version the resource has now; unknown when the conflict was between writers. */
    readonly currentVersion: number | undefined,
  ) {
    super('version conflict');
  }
}

export class DuplicateKeyError extends DomainError {
  constructor(readonly key: string) {
    super(`key ${key} exists`);
  }
}

export class InvalidOperationError extends DomainError {}

/** A query needed more than its budget (shared/domain/query/query-budget.ts); `spent` says what ran out. */
export class QueryTimedOutError extends DomainError {
  constructor(readonly spent: string) {
    super(
      `The query timed out: answering it needs ${spent}. Narrow it with a condition on an indexed field ` +
        '(id, key, or a createdAt range), ask withTotal=false, or page by id (sort=id asc with where id > "<last id>").',
    );
  }
}
