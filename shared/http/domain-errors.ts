import {
  DomainError,
  DuplicateKeyError,
  InvalidOperationError,
  QueryTimedOutError,
  ResourceNotFoundError,
  VersionConflictError,
} from '../domain/errors';
import { ApiError, concurrentModification, duplicateField, general, invalidOperation, queryTimedOut, resourceNotFound } from './errors';

/** The HTTP face of each domain refusal. */
export function fromDomainError(error: DomainError): ApiError {
  if (error instanceof ResourceNotFoundError) return resourceNotFound(error.message);
  if (error instanceof VersionConflictError) return concurrentModification(error.expectedVersion, error.currentVersion);
  if (error instanceof DuplicateKeyError) return duplicateField('key', error.key);
  if (error instanceof InvalidOperationError) return invalidOperation(error.message);
  if (error instanceof QueryTimedOutError) return queryTimedOut(error.message);
  return general();
}
