import * as z from 'zod/mini';
import type { DocumentSchema } from './document-schema';

/**
 * The error answers' schemas, their types inferred (shared/http/errors.ts uses the types only, so
 * no function bundles these schemas to answer an error).
 */

/** One problem: a code, a message, and the details its code defines (`field`, `currentVersion`, ...). */
const ErrorObject = z.looseObject({
  code: z.string(),
  message: z.string(),
});
export type ErrorObject = z.infer<typeof ErrorObject>;

/** Every error answer: the first error's message on top, at least one error object. */
const ErrorBody = z.looseObject({
  statusCode: z.number().check(z.int()),
  message: z.string(),
  errors: z.array(ErrorObject).check(z.minLength(1)),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const errorSchemas = {
  ErrorObject: {
    schema: ErrorObject,
    description: 'One problem: `code`, `message`, and the details of its code (`field`, `invalidValue`, `currentVersion`, ...).',
  },
  ErrorResponse: { schema: ErrorBody, description: 'Every error answer, in the commercetools shape.' },
  OAuthErrorResponse: {
    schema: z.looseObject({ ...ErrorBody.shape, error: z.string(), error_description: z.string() }),
    description: 'Errors of the OAuth endpoints: the commercetools shape plus the RFC 6749 §5.2 fields.',
  },
  /** What API Gateway answers itself (no token at all, a body over 10 MB, throttling) or the service does. */
  GatewayOrErrorResponse: {
    schema: z.union([ErrorBody, z.object({ message: z.string() })]),
    inline: true,
  },
} satisfies Record<string, DocumentSchema>;
