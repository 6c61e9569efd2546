import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { abbreviate } from './abbreviate';
import { DomainError, type ErrorObject } from './errors';
import { MAX_LISTED_PROBLEMS } from './limits';

/** A draft, an update action or another body that does not fit its schema: one error object per problem. */
export class ValidationError extends DomainError {}

// zod/mini carries no messages of its own; the error objects quote zod's English ones.
z.config(en());

/**
 * Validates a value against one of the domain schemas and turns every zod issue into an error
 * object of the commercetools family: RequiredField, DuplicateField, InvalidInput (unknown
 * fields) or InvalidField — the first MAX_LISTED_PROBLEMS of them, then one InvalidInput saying how
 * many more there are.
 */
export function validate<S extends z.ZodMiniType>(schema: S, value: unknown, root = ''): z.infer<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const { issues } = result.error;
  const errors = issues.slice(0, MAX_LISTED_PROBLEMS).map((issue) => toErrorObject(issue, root));
  if (issues.length > MAX_LISTED_PROBLEMS) {
    const unlisted = issues.length - MAX_LISTED_PROBLEMS;
    errors.push({ code: 'InvalidInput', message: `${unlisted} more problem${unlisted > 1 ? 's' : ''} in this body ${unlisted > 1 ? 'are' : 'is'} not listed: fix those above and send it again.` });
  }
  throw new ValidationError(errors as [ErrorObject, ...ErrorObject[]]);
}

function toErrorObject(issue: z.core.$ZodIssue, root: string): ErrorObject {
  const field = fieldPath(root, issue.path);
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return { code: 'RequiredField', message: `A value is required for field ${field || 'body'}.`, field };
  }
  if (issue.code === 'unrecognized_keys') {
    const unknown = issue.keys.map((key) => fieldPath(field, [key]));
    return { code: 'InvalidInput', message: `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}.`, fields: unknown };
  }
  if (issue.code === 'custom' && issue.params && 'duplicateValue' in issue.params) {
    const duplicateValue = issue.params.duplicateValue;
    return {
      code: 'DuplicateField',
      message: `Field ${field} contains the duplicate value ${JSON.stringify(duplicateValue)}.`,
      field,
      duplicateValue,
    };
  }
  return {
    code: 'InvalidField',
    message: `The value ${preview(issue.input)} is not valid for field ${field || 'body'}: ${issue.message}.`,
    field,
    invalidValue: issue.input,
  };
}

function fieldPath(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, segment) => {
    if (typeof segment === 'number') return `${acc}[${segment}]`;
    return acc ? `${acc}.${String(segment)}` : String(segment);
  }, root);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return abbreviate(text, 80);
}
