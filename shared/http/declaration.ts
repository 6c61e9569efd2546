import { PROJECT_SCOPE_NAMES, type ProjectScopeName } from '../auth/scopes';
import type { ErrorResponseName } from './contract/error-responses';
import type { SchemaName } from './contract/schemas';
import type { ParameterSpecs } from './parameters';

/**
 * What an endpoint is, declared once in `functions/<name>/endpoint.ts`: its routes (method, path,
 * access, body, parameters, answers), the AWS permissions of its function, and its name (the
 * folder). Everything else is derived from the list of declarations (functions/endpoints.ts): the
 * handler (`endpoint(declaration, handle)`), the local gateway's routes, the CDK routes, functions
 * and grants, and the OpenAPI document. A declaration that cannot be enforced does not load.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'ANY'];

export type Access =
  /** No token: the OAuth endpoints, the API reference and the not-found fallback. */
  | { kind: 'public' }
  /** A token holding `<scope>:<projectKey>` for any one of these scopes and the path's projectKey; never an empty list. */
  | { kind: 'project'; anyOf: readonly [ProjectScopeName, ...ProjectScopeName[]] };

/** The sections of the API reference (openapi.ts describes each, in order). */
export type Tag = 'Resources' | 'Images' | 'Subscriptions' | 'Extensions' | 'OAuth' | 'API reference';

/** How the gateway hands the body to the function. */
export type BodyKind = 'none' | 'json' | 'form' | 'binary' | 'text';

/**
 * What a function may touch in AWS; infra/function-permissions.ts turns each into IAM statements.
 * Table access is least privilege by key: a function reaches project partitions (`PROJECT#…`) or
 * client items (`CLIENT#…`), never both, and never Scans.
 */
export type Permission =
  /** GetItem, Query, BatchGetItem on project partitions (`PROJECT#…`): resources, variants, uploads, bindings, documents. */
  | 'projects:read'
  /** PutItem, UpdateItem, DeleteItem (also as the parts of a transaction) on project partitions. */
  | 'projects:write'
  /** GetItem of client items (`CLIENT#…`): scopes, secret hash, revocation. */
  | 'clients:read'
  /** The brute-force brake: UpdateItem of its counters in client partitions, those attributes only. */
  | 'clients:countAttempts'
  | 'signingKey:sign'
  | 'signingKey:publicKey'
  /** Put (POST /{projectKey}/resource/images's body, or completion's copy) and, to undo a failed attach, delete image objects (the served bucket). */
  | 'images:write'
  /** Presign PUT URLs into the pending-uploads bucket: S3 checks the signer's s3:PutObject when the URL is used. */
  | 'uploads:presignPut'
  /** Read (and copy from), list (so a missing object is 404, not 403) and delete pending uploads. */
  | 'uploads:consume'
  /** Invoke the Lambda functions that extension actions are bound to (named `gr-extension-*`). */
  | 'extensions:invoke'
  /** Park, retry and dead-letter notifications (`PARKED`, `DEAD#…`); send to the queues, topics and buses teams open to it. */
  | 'subscriptions:deliver'
  /** Read the search index: signs in to the search engine as its reader (SELECT only); the function runs beside the engine, in its network. */
  | 'search:read'
  /** Write the search index: signs in as its writer (owns the index's tables); in the engine's network too. */
  | 'search:write'
  /** Set aside, read, list and remove the stream records the indexer could not index (the failures bucket, also its mapping's on-failure destination). */
  | 'searchFailures:write';

/** The `{parameter}` names of a path. */
export type PathParameterOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameterOf<Rest> : never;

export interface PathParameterSpec {
  description: string;
  /** What the whole segment must look like, for the document. */
  pattern?: string;
  /** The most characters the service takes in it, for the document (what enforces it says so). */
  maxLength?: number;
}

/** Bodies by content type, each by its schema's name in the catalogue (contract/schemas.ts); `null`: any bytes of that type. */
export type Content = Readonly<Record<string, SchemaName | null>>;

export interface ResponseSpec {
  description: string;
  /** None: the answer has no body. */
  content?: Content;
  /** Response headers beyond X-Correlation-ID (every answer's), with what they say. */
  headers?: Readonly<Record<string, string>>;
  example?: unknown;
}

export interface RequestSpec {
  required: boolean;
  description?: string;
  content: Content;
}

export interface RouteDeclaration<Path extends string = string> {
  method: HttpMethod;
  /** API Gateway path: literal segments and whole-segment `{parameters}` (`$default`: the fallback). */
  path: Path;
  access: Access;
  body: BodyKind;
  summary: string;
  /** Every `{parameter}` of the path, described. */
  pathParameters: Readonly<Record<PathParameterOf<Path>, PathParameterSpec>>;
  /** Declared query parameters, checked by type before the handler runs. */
  query?: ParameterSpecs;
  /** The section of the reference (the not-found fallback is not an operation and has none). */
  tag?: Tag;
  /** What the summary leaves out. */
  description?: string;
  /** The OAuth endpoints: the caller authenticates as an API client with HTTP Basic. */
  clientAuthentication?: 'basic';
  request?: RequestSpec;
  /** Success answers by status. */
  responses: Readonly<Record<number, ResponseSpec>>;
  /** Error answers; 401, 403 (project routes) and 500 (every route) are added by the document. */
  errors: readonly ErrorResponseName[];
}

/** A Lambda function: `functions/<name>/handler.ts`, and what it may touch. */
export interface FunctionDeclaration {
  /** The folder under functions/: the function's entry, construct id and operationId. */
  name: string;
  permissions: readonly Permission[];
  /** Files the handler reads next to its bundle (paths from the repository root), copied there at bundling. */
  filesBesideBundle?: readonly string[];
  /**
   * The function reads the table's stream with these settings: infra/stack.ts builds its event
   * source mapping from them, and local mode's stream reader (local/change-stream.ts) obeys them.
   */
  tableStream?: TableStreamReading;
}

/** How a function reads the table's stream, as its event source mapping does. */
export interface TableStreamReading {
  /** Records per batch, at most (the mapping's BatchSize; locally GetRecords' Limit, at most 1,000). */
  batchSize: number;
  /** Seconds the mapping may wait to fill a batch (MaximumBatchingWindowInSeconds). */
  batchingWindowSeconds: number;
  /** Failed attempts after which a batch is given up to the failure destination; 'until-expired': retried until the stream drops the records (24 h). */
  retryAttempts: number | 'until-expired';
}

export interface EndpointDeclaration extends FunctionDeclaration {
  routes: readonly [RouteDeclaration, ...RouteDeclaration[]];
  /**
   * Its routes take an `Idempotency-Key` header: a retry with the same key answers the first
   * answer again (shared/http/idempotency-keys.ts; its handler gives endpoint() `idempotencyKeys`).
   * Its records live in the project's partition: it needs `projects:write`.
   */
  idempotencyKey?: true;
}

/** One route, its path parameters checked against its path by type. */
export const route = <const Path extends string>(declaration: RouteDeclaration<Path>): RouteDeclaration<Path> => declaration;

/** An endpoint, checked when its module loads (see checkEndpoint). */
export function defineEndpoint<const D extends EndpointDeclaration>(declaration: D): D {
  checkEndpoint(declaration);
  return declaration;
}

export function defineFunction<const D extends FunctionDeclaration>(declaration: D): D {
  checkName(declaration);
  return declaration;
}

/** The API Gateway route key, e.g. `GET /{projectKey}/resource/{id}`; the fallback's is `$default`. */
export const routeKey = (route: Pick<RouteDeclaration, 'method' | 'path'>) => (route.path === FALLBACK_PATH ? FALLBACK_PATH : `${route.method} ${route.path}`);

export const FALLBACK_PATH = '$default';

export class EndpointDeclarationError extends Error {
  override name = 'EndpointDeclarationError';
}

/**
 * Fails closed: an endpoint whose routes or access cannot be enforced is refused when it loads,
 * so it can never be served without its scope check. The types refuse the same declarations at
 * compile time; this catches what types cannot see (casts, `any`, JSON, a scope list emptied at run time).
 */
export function checkEndpoint(declaration: EndpointDeclaration): void {
  const fail = (problem: string): never => {
    throw new EndpointDeclarationError(`The endpoint ${declaration?.name ?? '(unnamed)'} ${problem}`);
  };
  checkName(declaration);
  if (!Array.isArray(declaration.routes) || declaration.routes.length === 0) fail('declares no route.');
  const keys = new Set<string>();
  for (const route of declaration.routes) {
    const key = `${route?.method} ${route?.path}`;
    if (!HTTP_METHODS.includes(route.method)) fail(`declares the method ${route.method}.`);
    if (typeof route.path !== 'string' || !(route.path.startsWith('/') || route.path === FALLBACK_PATH)) fail(`declares the path ${route.path}.`);
    if (keys.has(key)) fail(`declares ${key} twice.`);
    keys.add(key);
    checkAccess(route.access, (problem) => fail(`gives ${key} ${problem}`));
    const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!).sort();
    const described = Object.keys(route.pathParameters ?? {}).sort();
    if (inPath.join() !== described.join()) fail(`describes the path parameters [${described}] of ${key}, whose path has [${inPath}].`);
  }
  if (declaration.idempotencyKey && !declaration.permissions?.includes('projects:write')) fail('takes Idempotency-Keys without projects:write, where their records are kept.');
}

function checkAccess(access: Access | undefined, fail: (problem: string) => never): void {
  if (access?.kind === 'public') return;
  if (access?.kind !== 'project') return fail('no access rule: declare { kind: "public" } or the project scopes it accepts.');
  if (!Array.isArray(access.anyOf) || access.anyOf.length === 0) return fail('no scope: a project route must accept at least one scope.');
  const unknown = access.anyOf.filter((scope) => !PROJECT_SCOPE_NAMES.includes(scope));
  if (unknown.length > 0) fail(`unknown scopes: ${unknown.join(', ')}.`);
}

function checkName(declaration: FunctionDeclaration | undefined): void {
  if (typeof declaration?.name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(declaration.name)) {
    throw new EndpointDeclarationError(`A function is declared without a folder name: ${String(declaration?.name)}.`);
  }
  if (!Array.isArray(declaration.permissions)) throw new EndpointDeclarationError(`The function ${declaration.name} declares no permissions list.`);
}
