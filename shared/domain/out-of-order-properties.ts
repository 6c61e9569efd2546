import * as z from 'zod/mini';

/**
 * The body of POST /{projectKey}/resource/artificially-complex/path/uri-parameter-one={one}/{two}.
 *
 * The Generic Resource Service types every field but makes none required. This service decides: the body must
 * name a resource by `id` or `key` (the answer is that resource's `objectTypeProperty`), every
 * other field — at every level — is optional, and unknown fields are refused. Date-times are
 * ISO 8601 with a time zone (`Z` or an offset); `version` is a string, as in
 * test/fixtures/examples/out-of-order-properties-test-type.json.
 */

/** `createdBy` / `lastModifiedBy`: who made the change. */
export const OutOfOrderPropertiesModifiedBy = z.strictObject({ firstName: z.optional(z.string()), lastName: z.optional(z.string()) });

const dateTime = z.iso.datetime({ offset: true });

const fields = z.strictObject({
  id: z.optional(z.string()),
  version: z.optional(z.string()),
  key: z.optional(z.string()),
  createdAt: z.optional(dateTime),
  lastModifiedAt: z.optional(dateTime),
  createdBy: z.optional(OutOfOrderPropertiesModifiedBy),
  lastModifiedBy: z.optional(OutOfOrderPropertiesModifiedBy),
  custom: z.optional(z.string()),
  eigthProperty: z.optional(z.string()),
  ninthProperty: z.optional(z.string()),
  tenthProperty: z.optional(z.string()),
  /** Spelled so by the Generic Resource Service (and test/fixtures/examples/out-of-order-properties-test-type.json). */
  eleventhPropery: z.optional(z.string()),
  twelthProperty: z.optional(z.string()),
  thirteenthProperty: z.optional(z.string()),
  fourteenthProperty: z.optional(z.string()),
  fifteenthProperty: z.optional(z.string()),
});

/**
 * The body, with `id` or `key` required. A body with neither gets one issue at `id` with no input,
 * which `validate()` answers as `RequiredField` for `id` (the field the lookup tries first). The
 * check runs whenever the body is an object, so it is reported together with any other problem.
 */
export const OutOfOrderPropertiesTestType = fields.check(
  z.superRefine(
    (body, ctx) => {
      if (body.id !== undefined || body.key !== undefined) return;
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['id'], message: 'the body must name a resource by id or by key' });
    },
    { when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value) },
  ),
  // The same rule in the document's JSON Schema, which a refinement does not reach.
  z.meta({ anyOf: [{ required: ['id'] }, { required: ['key'] }] }),
);
export type OutOfOrderPropertiesTestType = z.infer<typeof OutOfOrderPropertiesTestType>;

/** The prefix the fourth path segment must carry: `uri-parameter-one=<value>`. */
export const URI_PARAMETER_ONE_PREFIX = 'uri-parameter-one=';

/** The value of `uriParameterOne` from its whole path segment, or undefined when the segment does not carry the prefix or carries nothing after it (such a path is not served). */
export function uriParameterOneOf(segment: string | undefined): string | undefined {
  if (segment === undefined || !segment.startsWith(URI_PARAMETER_ONE_PREFIX)) return undefined;
  const value = segment.slice(URI_PARAMETER_ONE_PREFIX.length);
  return value === '' ? undefined : value;
}

/** How long each path parameter may be, measured URL-encoded (`encodeURIComponent`): both together name one DynamoDB item, whose sort key is at most 1024 bytes. */
export const MAX_URI_PARAMETER_LENGTH = 500;

/** Whether the value is well-formed Unicode of at most MAX_URI_PARAMETER_LENGTH characters URL-encoded. */
export function uriParameterFits(value: string): boolean {
  try {
    return encodeURIComponent(value).length <= MAX_URI_PARAMETER_LENGTH;
  } catch {
    return false; // a lone surrogate: not a string a path can carry
  }
}
