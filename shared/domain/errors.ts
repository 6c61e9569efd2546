/**
 * What the domain, the services and the store ports refuse, in the API's own vocabulary and
 * independent of HTTP. The commercetools error codes are the domain's words for a refusal; each
 * error carries its error objects (code, message for the API user, the fields its code defines).
 * The HTTP layer gives each code its status in one place (shared/http/errors.ts).
 */

/** Every code a domain refusal may carry. */
export type ErrorCode =
  | 'InvalidInput'
  | 'InvalidJsonInput'
  | 'InvalidField'
  | 'RequiredField'
  | 'DuplicateField'
  | 'InvalidOperation'
  | 'ResourceNotFound'
  | 'NotFound'
  | 'ConcurrentModification'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'ExtensionBadResponse'
  | 'ExtensionNoResponse'
  | 'QueryTimedOut';

/** One problem: a code, a message, and the details its code defines (`field`, `currentVersion`, ...). */
export interface ErrorObject {
  code: ErrorCode;
  message: string;
  [detail: string]: unknown;
}

/** A refusal: one or more error objects; the first one's message is the error's message. */
export class DomainError extends Error {
  constructor(readonly errors: [ErrorObject, ...ErrorObject[]]) {
    super(errors[0].message);
  }

  /** The code of the first error object: what decides the answer's status. */
  get code(): ErrorCode {
    return this.errors[0].code;
  }
}

const single = (code: ErrorCode, message: string, details: Record<string, unknown> = {}): [ErrorObject] => [
  { code, message, ...details },
];

/** `field` holds a value another resource holds already. */
const duplicateField = (field: string, duplicateValue: unknown): [ErrorObject] =>
  single('DuplicateField', `A duplicate value '${JSON.stringify(duplicateValue)}' exists for field '${field}'.`, {
    field,
    duplicateValue,
  });

/** A resource (or another named thing) does not exist; `description` names it, e.g. "The resource with id 'x'". */
export class ResourceNotFoundError extends DomainError {
  constructor(readonly description: string) {
    super(single('ResourceNotFound', `${description} was not found.`));
  }
}

export class VersionConflictError extends DomainError {
  constructor(
    readonly expectedVersion: number | undefined,
    /** The version the resource has now; unknown when the conflict was between writers. */
    readonly currentVersion: number | undefined,
  ) {
    super(
      single(
        'ConcurrentModification',
        currentVersion === undefined
          ? 'Object was modified concurrently. Please retry.'
          : `Object ${expectedVersion === undefined ? '' : `version ${expectedVersion} `}does not match the current version ${currentVersion}.`,
        currentVersion === undefined ? {} : { currentVersion },
      ),
    );
  }
}

/** Another resource holds this key. */
export class DuplicateKeyError extends DomainError {
  constructor(readonly key: string) {
    super(duplicateField('key', key));
  }
}

export interface InvalidOperationOptions {
  /** The operation may succeed later, once the state changed (an image upload not sent yet): a conflict, not a bad request. */
  untilStateChanges?: boolean;
}

export class InvalidOperationError extends DomainError {
  readonly untilStateChanges: boolean;

  constructor(message: string, options: InvalidOperationOptions = {}) {
    super(single('InvalidOperation', message));
    this.untilStateChanges = options.untilStateChanges ?? false;
  }
}

/** A field a request needs is missing (validation reports those of a schema itself). */
export class RequiredFieldError extends DomainError {
  constructor(field: string, why: string) {
    super(single('RequiredField', `A value is required for field ${field}: ${why}`, { field }));
  }
}

export class InvalidInputError extends DomainError {
  constructor(message: string) {
    super(single('InvalidInput', message));
  }
}

export class InvalidJsonInputError extends DomainError {
  constructor(readonly detailedErrorMessage: string) {
    super(single('InvalidJsonInput', 'Request body does not contain valid JSON.', { detailedErrorMessage }));
  }
}

export class RequestEntityTooLargeError extends DomainError {
  constructor(readonly limitBytes: number) {
    super(single('RequestEntityTooLarge', `The request body exceeds the limit of ${limitBytes} bytes.`));
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  constructor(expected: string, received: string | undefined) {
    super(single('UnsupportedMediaType', `Expected content type ${expected}, received ${received ?? 'none'}.`));
  }
}

/** A query needed more than its budget (shared/domain/query/query-budget.ts): `spent` says what ran out, `advice` what to do. */
export class QueryTimedOutError extends DomainError {
  constructor(
    readonly spent: string,
    advice: string,
  ) {
    super(single('QueryTimedOut', `The query timed out: answering it needs ${spent}. ${advice}`));
  }
}

/**
 * The store port refused to work now (throttled, or its engine failed): retryable, nothing was
 * done, and no refusal of the request itself, so no DomainError. The HTTP layer answers it as
 * 503 OverCapacity.
 */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('store unavailable', { cause });
  }
}

/**
 * No answer in time: a store that could not be reached or did not answer, or the request's
 * deadline passed. A write may or may not have been applied. The HTTP layer answers it as 503
 * ServiceUnavailable, saying so for writes.
 */
export class NoAnswerError extends Error {
  constructor(cause?: unknown) {
    super('no answer in time', { cause });
  }
}
