import * as z from 'zod/mini';
import { EXTENSION_ACTIONS } from './actions';
import { unknownKind } from '../unknown-kind';

/**
 * A project's binding of an extension action to what answers it: an HTTP(S) endpoint, a Lambda
 * function, or a static JSON document. Stored one item per (project, action); managed with
 * `npm run extension -- bind|unbind|list`.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Any JSON value (object, array, string, finite number, boolean, null). */
export const JsonValueSchema: z.ZodMiniType<JsonValue> = z.json();

/** Largest static document a binding holds: the item must stay under DynamoDB's 400 KB. */
export const STATIC_DOCUMENT_LIMIT_BYTES = 256 * 1024;

/** Lambda functions an extension may be bound to; the service's IAM grant covers these names only. */
export const LAMBDA_NAME_PREFIX = 'gr-extension-';

/**
 * A function name, or a function ARN (optionally with a version or alias), whose name starts with
 * `gr-extension-`.
 */
const LAMBDA_FUNCTION = new RegExp(
  `^(arn:aws[a-zA-Z-]*:lambda:[a-z0-9-]+:\\d{12}:function:)?${LAMBDA_NAME_PREFIX}[A-Za-z0-9_-]{1,51}(:[A-Za-z0-9$_-]{1,128})?$`,
);

/** The signing secret generated at bind time (see signing.ts). */
const Secret = z.string().check(z.minLength(32), z.maxLength(256));

/**
 * The syntactic rules for an endpoint URL. Whether the address may be called is decided at call
 * time (https only in AWS, public addresses only, resolved once and pinned; see
 * services/extension-forwarding/target-policy.ts).
 */
export const ExtensionUrl = z.string().check(
  z.maxLength(2048),
  z.refine((text) => URL.canParse(text), { message: 'not an absolute URL' }),
  z.refine((text) => ['https:', 'http:'].includes(new URL(text).protocol), { message: 'the URL must use https (or http on loopback in local mode)' }),
  z.refine((text) => new URL(text).username === '' && new URL(text).password === '', { message: 'credentials in the URL are not allowed' }),
  z.refine((text) => new URL(text).hash === '', { message: 'a URL fragment is not allowed' }),
);

export const HttpTarget = z.strictObject({ kind: z.literal('http'), url: ExtensionUrl, secret: Secret });

/** What makes a new Lambda binding one the service could never invoke; undefined when it can. */
export function newLambdaBindingProblem(functionName: string): string | undefined {
  // The service invokes its own account's functions in its own region (its IAM grant, its
  // region's Lambda endpoint), which a name always means; an ARN may name another account or
  // region, and every call would answer 502. Bindings stored with an ARN before still work when
  // it is of the service's account and region.
  return functionName.startsWith('arn:') || /^\d{12}:function:/.test(functionName)
    ? "give the function's name (gr-extension-…, optionally :<version or alias>), not an ARN: the service invokes functions of its own AWS account and region only"
    : undefined;
}

export const LambdaTarget = z.strictObject({
  kind: z.literal('lambda'),
  functionName: z.string().check(z.regex(LAMBDA_FUNCTION, `a Lambda function name or ARN whose name starts with ${LAMBDA_NAME_PREFIX}`)),
  secret: Secret,
});

/**
 * The statuses an extension answers with: 200–599 with a JSON body, so neither a redirect (3xx,
 * never followed) nor 204 or 205, which carry no body — and every non-HEAD answer has one.
 */
export const isExtensionAnswerStatus = (status: unknown): status is number =>
  typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 599 && (status < 300 || status >= 400) && status !== 204 && status !== 205;

export const StaticTarget = z.strictObject({
  kind: z.literal('static'),
  /** The status the action answers with (200 unless given). */
  statusCode: z.number().check(z.refine(isExtensionAnswerStatus, { message: 'the status must be 200–599 with a body: not 3xx, 204 or 205' })),
  document: JsonValueSchema.check(
    z.refine((value) => Buffer.byteLength(JSON.stringify(value)) <= STATIC_DOCUMENT_LIMIT_BYTES, {
      message: `the document exceeds ${STATIC_DOCUMENT_LIMIT_BYTES} bytes`,
    }),
  ),
});

export const ExtensionTarget = z.discriminatedUnion('kind', [HttpTarget, LambdaTarget, StaticTarget]);

export const ExtensionBinding = z.strictObject({
  projectKey: z.string().check(z.minLength(1), z.maxLength(256)),
  action: z.enum(EXTENSION_ACTIONS),
  target: ExtensionTarget,
  createdAt: z.iso.datetime(),
});

export type HttpTarget = z.infer<typeof HttpTarget>;
export type LambdaTarget = z.infer<typeof LambdaTarget>;
export type StaticTarget = z.infer<typeof StaticTarget>;
export type ExtensionTarget = z.infer<typeof ExtensionTarget>;
export type ExtensionBinding = z.infer<typeof ExtensionBinding>;

/** A binding as operators may see it: the secret never leaves the store again after bind. */
export function describeTarget(target: ExtensionTarget): string {
  switch (target.kind) {
    case 'http':
      return `endpoint ${target.url}`;
    case 'lambda':
      return `Lambda function ${target.functionName}`;
    case 'static':
      return `static document (${Buffer.byteLength(JSON.stringify(target.document))} bytes, status ${target.statusCode})`;
    default:
      return unknownKind(target, 'extension target kind');
  }
}
