import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ObjectTestTypeDraft } from '../../../shared/domain/resource';
import { endpoints } from '../../../functions/endpoints';
import type { RouteDeclaration } from '../../../shared/http/declaration';
import { baseUrl, call, draftExample, forgeToken, tokenFor, validClaims } from '../api-client';

/** Every declared route, with the name of the endpoint that serves it. */
type Route = RouteDeclaration & { handler: string };
const routes: readonly Route[] = endpoints.flatMap((endpoint) => endpoint.routes.map((route) => ({ ...route, handler: endpoint.name })));

/**
 * Property-based fuzzing of every route of the route table, over HTTP against the local stack:
 * malformed bodies, query strings, paths and headers. Whatever comes in, the service answers
 * below 500, in JSON (except HEAD), in the commercetools error shape for 4xx, with an
 * X-Correlation-ID, and a refused request changes nothing in the store.
 *
 * The requests go to dedicated projects (`fuzz`, and `fuzz-images` for uploads) with a token of
 * the stack's own signing key holding every scope for them, so that the store snapshots are not
 * disturbed by the other suites writing to `demo` and `other` in parallel.
 */
const PROJECT = 'fuzz';
const IMAGES_PROJECT = 'fuzz-images';
const NUM_RUNS = 40;
/**
 * A fixed seed keeps CI reproducible: a run fails for a change, not for a new draw. Explore with
 * `FUZZ_SEED=random npm run test:integration` (or any number); a failure prints its seed.
 */
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() : Number(process.env.FUZZ_SEED ?? 20_261_121);
const SCOPES = ['manage_test', 'view_test', 'manage_products', 'manage_subscriptions'].flatMap((scope) => [`${scope}:${PROJECT}`, `${scope}:${IMAGES_PROJECT}`]);
const token = forgeToken(validClaims({ scope: SCOPES.join(' '), exp: Math.floor(Date.now() / 1000) + 3600 }));
const BEARER = `Bearer ${token}`;

const dataDir = inject('dataDir');
const local = JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8')) as { dynamoDbEndpoint: string; tableName: string };
const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: local.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  { unmarshallOptions: { wrapNumbers: (value: string) => Number(value) } },
);

const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const OUT_OF_ORDER = readFileSync(new URL('../../fixtures/examples/out-of-order-properties-test-type.json', import.meta.url), 'utf8');
const NONEXISTENT_ID = randomUUID();
let seeded: { id: string; key?: string }[] = [];
let devToken = '';

// ---------------------------------------------------------------------------------------------
// A raw HTTP client: fetch normalises paths and refuses odd header values; node:http sends them.

interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}
interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const target = new URL(baseUrl);
const agent = new Agent({ keepAlive: true, maxSockets: 24 });
afterAll(() => agent.destroy());

function send(raw: RawRequest, attempt = 1): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        method: raw.method,
        path: raw.path,
        headers: { ...raw.headers, ...(raw.body ? { 'content-length': String(raw.body.length) } : {}) },
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed meanwhile (Node's documented retry case).
      if (outgoing.reusedSocket && error.code === 'ECONNRESET' && attempt === 1) resolve(send(raw, 2));
      else reject(error);
    });
    outgoing.end(raw.body);
  });
}

// ---------------------------------------------------------------------------------------------
// What every answer must be, and what the store must keep.

const ACCEPTABLE_CORRELATION_ID = /^[\w.:/-]{1,256}$/;
const GENERATED_CORRELATION_ID = /^projects-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Answers that changed something on purpose (the fuzz never aims at a real resource). */
interface Ledger {
  /** The last value PUT /json-serializable-primitive-type accepted, as JSON text. */
  jsonValue?: string;
  /** Resources a fuzzed draft created: checked and deleted after the run. */
  created: { id: string; sent: unknown }[];
}
let ledger: Ledger = { created: [] };

const describeRequest = (raw: RawRequest) =>
  `${raw.method} ${raw.path.slice(0, 300)}${raw.path.length > 300 ? '…' : ''} headers=${JSON.stringify(raw.headers).slice(0, 300)} body=${raw.body ? JSON.stringify(raw.body.toString('utf8').slice(0, 200)) : '-'}`;

/** Sends one request and checks the invariants every answer keeps; returns the parsed body. */
async function sendChecked(route: Route | undefined, raw: RawRequest, sentBody?: unknown): Promise<{ answer: RawAnswer; body: any }> {
  const answer = await send(raw);
  const where = `${describeRequest(raw)}\n→ ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);

  const correlationId = answer.headers['x-correlation-id'];
  expect(typeof correlationId, where).toBe('string');
  // Repeated headers reach the service joined by ", " (Node, like API Gateway).
  const sentId = raw.headers['x-correlation-id'];
  const given = Array.isArray(sentId) ? sentId.join(', ') : sentId;
  const trimmed = typeof given === 'string' ? given.replace(/^[ \t]+|[ \t]+$/g, '') : undefined;
  if (trimmed !== undefined && ACCEPTABLE_CORRELATION_ID.test(trimmed)) expect(correlationId, where).toBe(trimmed);
  else expect(correlationId, where).toMatch(GENERATED_CORRELATION_ID);

  if (raw.method === 'HEAD') {
    expect(answer.text, where).toBe('');
    return { answer, body: undefined };
  }
  if (route?.handler === 'get-api-docs' && answer.status === 200) {
    // The API reference page and its two files: the only answers that are not JSON.
    expect(answer.headers['content-type'], where).toMatch(/^(text\/html|text\/css|application\/javascript|text\/javascript)/);
    return { answer, body: undefined };
  }
  expect(answer.headers['content-type'], where).toMatch(/^application\/json/);
  let body: any;
  expect(() => (body = JSON.parse(answer.text)), where).not.toThrow();
  if (answer.status >= 400) {
    expect(body, where).toMatchObject({ statusCode: answer.status, message: expect.any(String) });
    expect(Array.isArray(body.errors) && body.errors.length > 0, where).toBe(true);
    for (const error of body.errors) expect(error, where).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(body.message, where).toBe(body.errors[0].message);
  } else if (answer.status < 300) {
    recordAccepted(route, raw, answer, body, sentBody, where);
  }
  return { answer, body };
}

/** A 2xx from a writing route: only the ones the fuzz may legitimately cause are allowed. */
function recordAccepted(route: Route | undefined, raw: RawRequest, answer: RawAnswer, body: any, sentBody: unknown, where: string) {
  // POST …/resource/search (search-resources) reads: its body is a search request.
  if (raw.method === 'GET' || raw.method === 'HEAD' || ['issue-token', 'introspect-token', 'search-resources'].includes(route?.handler ?? '')) return;
  if (route?.handler === 'put-json-value') {
    ledger.jsonValue = JSON.stringify(body);
    return;
  }
  if ((route?.handler === 'create-resource' || route?.handler === 'put-resource') && answer.status === 201 && sentBody !== undefined) {
    ledger.created.push({ id: body.id, sent: sentBody });
    return;
  }
  if (route?.handler === 'upload-image' && raw.path.startsWith(`/${IMAGES_PROJECT}/`)) return;
  throw new Error(`A fuzzed request was accepted and may have written: ${where}`);
}

type Snapshot = Record<string, Record<string, unknown>>;

/** Every item of a project's partition, straight from DynamoDB, by sort key. */
async function partition(projectKey: string): Promise<Snapshot> {
  const items: Snapshot = {};
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: local.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `PROJECT#${projectKey}` },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) items[item.sk as string] = item;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

const isCounter = (sk: string) => sk.startsWith('STATS#');
const withoutCounters = (items: Snapshot) => Object.fromEntries(Object.entries(items).filter(([sk]) => !isCounter(sk)));
const counted = (items: Snapshot) => Object.entries(items).reduce((sum, [sk, item]) => sum + (isCounter(sk) ? Number(item.resources ?? 0) : 0), 0);

/** The project's resources as the API lists them (GET ?limit=500). */
async function listed(projectKey: string) {
  const answer = await call('GET', `/${projectKey}/resource?limit=500&sort=id%20asc`, { token });
  expect(answer.status).toBe(200);
  return answer.body as { count: number; total: number; results: unknown[] };
}

/**
 * Runs a property and checks the store afterwards: the project's partition is exactly what it
 * was, but for what accepted requests wrote (the JSON value; fuzzed drafts that were valid
 * creations, which are read back and deleted first). `imagesToo`: fuzz-images must not change either.
 */
async function withStoreUnchanged(run: () => Promise<void>, options: { imagesToo: boolean }) {
  const before = { items: await partition(PROJECT), listed: await listed(PROJECT), images: await partition(IMAGES_PROJECT) };
  ledger = { created: [] };
  await run();
  for (const { id, sent } of ledger.created) {
    // A valid draft (huge but storable numbers): it must read back exactly as sent, then go.
    const stored = await call('GET', `/${PROJECT}/resource/${id}`, { token });
    expect(stored.status).toBe(200);
    const expected = JSON.parse(JSON.stringify((sent as { objectTypeProperty: unknown }).objectTypeProperty));
    expect(stored.body.objectTypeProperty).toEqual(expected);
    // Setting a value twice: the second write's failed condition returns the item, numbers and all.
    const action = { action: 'changeSomeProperty', someProperty: 'twice' };
    expect((await call('POST', `/${PROJECT}/resource/${id}`, { token, json: { version: 1, actions: [action] } })).status).toBe(200);
    const again = await call('POST', `/${PROJECT}/resource/${id}`, { token, json: { version: 2, actions: [action] } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ version: 2, objectTypeProperty: expected });
    expect((await call('DELETE', `/${PROJECT}/resource/${id}`, { token })).status).toBe(200);
  }
  const after = { items: await partition(PROJECT), listed: await listed(PROJECT), images: await partition(IMAGES_PROJECT) };

  const { JSON_VALUE: jsonBefore, ...restBefore } = before.items;
  const { JSON_VALUE: jsonAfter, ...restAfter } = after.items;
  // The counter shards may change item by item (a create counts on one, its delete on another): only their sum must hold.
  expect(withoutCounters(restAfter)).toEqual(withoutCounters(restBefore));
  expect(counted(restAfter)).toBe(counted(restBefore));
  if (ledger.jsonValue === undefined) expect(jsonAfter).toEqual(jsonBefore);
  else expect(jsonAfter?.json).toBe(ledger.jsonValue);
  expect(after.listed.count).toBe(before.listed.count);
  expect(after.listed.results).toEqual(before.listed.results);
  if (options.imagesToo) expect(after.images).toEqual(before.images);
}

// ---------------------------------------------------------------------------------------------
// Requests for a route.

const DEFAULT_PATH_PARAMETERS: Record<string, string> = {
  id: NONEXISTENT_ID,
  uriParameterOne: 'uri-parameter-one=fuzz',
  uriParameterTwo: 'two',
};

const projectOf = (route: Route) => (route.handler === 'upload-image' ? IMAGES_PROJECT : PROJECT);

function pathOf(route: Route, overrides: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => overrides[name] ?? (name === 'projectKey' ? projectOf(route) : DEFAULT_PATH_PARAMETERS[name]!));
}

/** A body the route refuses by content (or, for the JSON value, accepts harmlessly). */
function refusedBody(route: Route): { body?: Buffer; contentType?: string } {
  switch (route.body) {
    case 'json':
    case 'text':
      return { body: Buffer.from('{}'), contentType: 'application/json' };
    case 'form':
      return { body: Buffer.from('grant_type=client_credentials'), contentType: 'application/x-www-form-urlencoded' };
    case 'binary':
      return { body: GIF_1X1, contentType: 'image/gif' }; // without sku or variant: 400
    case 'none':
      return {};
  }
}

function headersFor(route: Route, contentType: string | undefined, extra: Record<string, string | string[]> = {}) {
  const headers: Record<string, string | string[]> = {};
  if (route.access.kind === 'project') headers.authorization = BEARER;
  else if (route.body === 'form') headers.authorization = `Basic ${Buffer.from('test-client:test-secret-123').toString('base64')}`;
  if (contentType !== undefined) headers['content-type'] = contentType;
  return { ...headers, ...extra };
}

const allRoutes = routes as readonly Route[];

// ---------------------------------------------------------------------------------------------
// Generators.

const PATH_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&\'()*+,;=:@%"<>[]\\^`{|}'];
const pathChar = fc.constantFrom(...PATH_CHARS);
/** Characters a raw query string may carry on the wire (no space, no '#'). */
const queryChar = fc.constantFrom(...PATH_CHARS, '?', '/', '=', '&', '%');
const latin1 = fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code));

const hugeNumberLiterals = [
  '1e400', '-1e400', '1e20', '-1e20', '9007199254740993', '-9007199254740993', '123456789012345678901234567890',
  '1e-400', '5e-324', '1e125', '9.99e124', '1e-129', '1.5e-129', '-0', '1.7976931348623157e308', '0.30000000000000004', '1e-7',
];
const numericFields = ['arrayOfIntExample', 'arrayOfUniqueIntExample', 'arrayOfTwonumbersExample', 'arrayOfFloatExample', 'arrayOfNumberNoDefaultsExample'];
const draftFields = [...numericFields, 'arrayOfStringExample', 'arrayOfObjectType'];

/** A value of any JSON type, to put where the schema expects another. */
const wrongValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, '', 'x', 0, -1, 1.5, [], {}, [null], ['1'], [{}], [[1]], { integerExample: '1' }, [{ integerExample: 70000 }], [{ integerExample: 1, extra: 1 }]),
);

/** Nested `depth` levels deep, as arrays or objects. */
const deepNesting = fc.record({ depth: fc.integer({ min: 33, max: 5_000 }), kind: fc.constantFrom('array', 'object', 'mixed') }).map(({ depth, kind }) => {
  const open = kind === 'array' ? '[' : kind === 'object' ? '{"a":' : '[{"a":';
  const close = kind === 'array' ? ']' : kind === 'object' ? '}' : '}]';
  const levels = kind === 'mixed' ? Math.ceil(depth / 2) : depth;
  return `${open.repeat(levels)}1${close.repeat(levels)}`;
});

const validBodies = [JSON.stringify({ key: 'fuzz-truncated', ...draftExample }), JSON.stringify({ version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'x' }] }), OUT_OF_ORDER, 'grant_type=client_credentials&scope=manage_test%3Afuzz'];

/** A body, and what it is (for the report), and the parsed draft when it is a valid creation. */
interface FuzzBody {
  kind: string;
  text: Buffer;
  contentType?: string;
  draft?: unknown;
}

/** Counterexamples print as their kind and a preview, not as a byte dump. */
const printable = (body: FuzzBody): FuzzBody =>
  Object.assign(body, {
    [fc.toStringMethod]: () => `${body.kind} (${body.text.length} bytes): ${JSON.stringify(body.text.toString('utf8').slice(0, 160))}`,
  });

const malformedBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'random JSON', text: Buffer.from(JSON.stringify(value) ?? 'null') })),
  fc.uint8Array({ maxLength: 600 }).map((bytes) => ({ kind: 'random bytes', text: Buffer.from(bytes) })),
  fc
    .tuple(fc.constantFrom(...validBodies), fc.double({ min: 0, max: 0.999, noNaN: true }))
    .map(([text, cut]) => ({ kind: 'truncated', text: Buffer.from(text.slice(0, Math.floor(text.length * cut))) })),
  deepNesting.map((nested) => ({ kind: 'deep nesting', text: Buffer.from(nested) })),
  fc
    .tuple(deepNesting, fc.constantFrom('draft', 'update', 'json'))
    .map(([nested, where]) => ({
      kind: `deep nesting in a ${where}`,
      text: Buffer.from(
        where === 'draft'
          ? `{"objectTypeProperty":{"arrayOfIntExample":[${nested}]}}`
          : where === 'update'
            ? `{"version":1,"actions":[{"action":"changeSomeProperty","someProperty":${nested}}]}`
            : `{"a":${nested}}`,
      ),
    })),
  fc
    .tuple(fc.constantFrom(...hugeNumberLiterals), fc.constantFrom(...numericFields, 'integerExample', 'version', 'top level'))
    .map(([literal, field]) => ({
      kind: `number literal ${literal} in ${field}`,
      text: Buffer.from(
        field === 'top level'
          ? literal
          : field === 'version'
            ? `{"version":${literal},"actions":[]}`
            : field === 'integerExample'
              ? `{"objectTypeProperty":{"arrayOfObjectType":[{"integerExample":${literal}}]}}`
              : `{"objectTypeProperty":{"${field}":[${field === 'arrayOfTwonumbersExample' ? `${literal},1` : literal}]}}`,
      ),
    })),
  fc
    .tuple(fc.constantFrom(...draftFields, 'objectTypeProperty', 'key', 'version', 'actions', 'id'), wrongValue)
    .map(([field, value]) => {
      const body: Record<string, unknown> =
        field === 'actions' ? { version: 1, actions: value } : field === 'key' || field === 'version' || field === 'id' ? { ...draftExample, [field]: value } : field === 'objectTypeProperty' ? { objectTypeProperty: value } : { objectTypeProperty: { ...draftExample.objectTypeProperty, [field]: value } };
      return { kind: `wrong type for ${field}`, text: Buffer.from(JSON.stringify(body)) };
    }),
)
  .filter(({ text }) => !isValidDraft(text)) // a "wrong" value may by chance be a right one: that is no malformed body
  .map(printable);

/** Whether POST/PUT would accept the body as a draft (then it is no malformed input). */
function isValidDraft(text: Buffer): boolean {
  try {
    return ObjectTestTypeDraft.safeParse(JSON.parse(text.toString('utf8'))).success;
  } catch {
    return false;
  }
}

/** A valid draft whose numbers are huge, tiny or random but storable: must be created and read back exactly. */
const storableDraft: fc.Arbitrary<FuzzBody> = fc
  .tuple(
    fc.constantFrom('arrayOfFloatExample', 'arrayOfNumberNoDefaultsExample', 'arrayOfTwonumbersExample'),
    fc.oneof(
      fc.constantFrom(1e20, -1e20, 2 ** 53 /* what the literal 9007199254740993 parses to */, 1.2345678901234567e100, 9.99e124, -9.99e124, 1.5e-129, 0.30000000000000004, 1e-7, 0),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => n === 0 || (Math.abs(n) < 1e125 && Math.abs(n) > 1e-129)),
    ),
  )
  .map(([field, value]) => {
    const draft = { objectTypeProperty: { [field]: field === 'arrayOfTwonumbersExample' ? [value, -value] : [value] } };
    return printable({ kind: `storable number ${value} in ${field}`, text: Buffer.from(JSON.stringify(draft)), draft });
  });

const contentTypes = [
  undefined, 'application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-16', 'APPLICATION/JSON',
  'application/vnd.api+json', 'application/x-www-form-urlencoded', 'text/plain', 'text/json', 'multipart/form-data; boundary=----x',
  'image/png', 'image/jpeg', 'image/gif', 'application/octet-stream', '', ';', 'application/json; charset=', 'application/json, text/plain',
  `application/json; ${'x'.repeat(2000)}`,
];
const contentType = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...contentTypes) },
  { weight: 1, arbitrary: fc.string({ unit: fc.oneof(queryChar, latin1), maxLength: 60 }) },
);

/** Where-predicate garbage: token soup from the predicate language, and a few known traps. */
const predicateToken = fc.constantFrom(
  'id', 'key', 'version', 'someProperty', 'createdAt', 'objectTypeProperty', 'arrayOfIntExample', 'objectTypeProperty.arrayOfIntExample',
  'unknownField', '(', ')', '((', '))', '=', '!=', '<>', '>', '>=', '<', '<=', 'and', 'or', 'not', 'in', 'contains', 'any', 'all', 'is',
  'empty', 'defined', 'within', 'circle', '"x"', '"', "'", '1', '-1', '1e400', '1.5', 'true', 'false', 'null', ':v', ':', ',', '[', ']',
  '"2020-01-01T00:00:00.000Z"', '"\\u0000"', '"\\"', `"${'x'.repeat(1100)}"`, `id > "${'z'.repeat(1100)}"`, `id >= "${'é'.repeat(400)}"`,
  `${'('.repeat(40)}id = "x"${')'.repeat(40)}`, `${'not '.repeat(50)}id = "x"`,
);
const tokenSoup = fc.array(predicateToken, { minLength: 1, maxLength: 10 }).map((tokens) => tokens.join(' '));
/** Predicates that parse, with odd fields, operators and values: they reach the evaluator and the store. */
const comparison = fc
  .tuple(
    fc.constantFrom('id', 'key', 'version', 'someProperty', 'createdAt', 'lastModifiedAt', 'objectTypeProperty.arrayOfIntExample', 'nope'),
    fc.constantFrom('=', '!=', '<>', '>', '>=', '<', '<=', 'in', 'not in', 'contains any', 'contains all'),
    fc.oneof(
      fc.string({ maxLength: 20 }).map((text) => JSON.stringify(text)),
      fc.integer({ min: 1, max: 3000 }).map((length) => `"${'z'.repeat(length)}"`),
      fc.constantFrom('1', '-1', '1e400', '1e20', '1.5', 'true', 'null', '"é"', '"\\u0000"', '("a", "b")', '(1, 2)', '()', ':v', '"2020-01-01T00:00:00.000Z"'),
    ),
  )
  .map(([field, operator, value]) => `${field} ${operator} ${/in|contains/.test(operator) && !value.startsWith('(') ? `(${value})` : value}`);
const predicate = fc
  .array(comparison, { minLength: 1, maxLength: 3 })
  .chain((parts) => fc.constantFrom(' and ', ' or ').map((joint) => parts.join(joint)));
const whereGarbage = fc.oneof(tokenSoup, predicate);
const sortGarbage = fc
  .array(fc.constantFrom('id', 'key', 'version', 'createdAt', 'objectTypeProperty.arrayOfIntExample', 'someProperty', 'nope', 'asc', 'desc', 'ASC', 'sideways', '', ' ', ','), { maxLength: 4 })
  .map((tokens) => tokens.join(' '));
const numberish = fc.constantFrom('1e400', '-0', '0x10', 'NaN', 'Infinity', '9'.repeat(400), '1.', '.5', '+1', ' 1', '1 ', '', '-1', '501', '10001', '2147483648', 'true', '1,2', '[1]', '{}');
const jsonish = fc.oneof(fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null'), fc.constantFrom('{"objectTypeProperty":{}}', '{"objectTypeProperty":{"arrayOfIntExample":[1e400]}}', `{"a":${'['.repeat(2000)}${']'.repeat(2000)}}`));

const declaredNames = [...new Set(allRoutes.flatMap((route) => Object.keys(route.query ?? {})))];
const queryName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...declaredNames, 'var.x', 'var.', 'var.a.b', 'text.en', 'text.', 'text.en-US', 'scope', 'grant_type', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }).filter((text) => !/[\uD800-\uDFFF]/.test(text)),
  whereGarbage,
  sortGarbage,
  numberish,
  jsonish,
  fc.integer({ min: 200, max: 3000 }).map((length) => 'q'.repeat(length)),
);
const pair = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(queryName, queryValue).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%e0%a4', '%ED%A0%80', '%C0%AF', 'where=%', 'limit=%zz', 'where=%E0%A4%A', '=', '==', '&', 'a=b=c', '+=+', 'limit', 'limit=', 'sort') },
  { weight: 1, arbitrary: fc.string({ unit: queryChar, maxLength: 40 }) },
);
/** Declared parameters given twice (allowed only for repeatable ones). */
const repeated = fc.constantFrom(...declaredNames).chain((name) =>
  fc.tuple(queryValue, queryValue).map(([a, b]) => `${encodeURIComponent(name)}=${encodeURIComponent(a)}&${encodeURIComponent(name)}=${encodeURIComponent(b)}`),
);
/** At most 8,000 characters: API Gateway refuses request lines and headers over 10 KB by itself. */
const queryString = fc.array(fc.oneof(pair, repeated), { minLength: 1, maxLength: 6 }).map((pairs) => pairs.join('&').slice(0, 8000));

/**
 * One path segment: junk, encoded slashes, key= variants, very long, encoded unicode. (Raw bytes
 * above 0x7F in a request line are not HTTP: node:http, like API Gateway, refuses them itself.)
 */
const segment = fc.oneof(
  fc.string({ unit: pathChar, minLength: 1, maxLength: 30 }),
  fc.constantFrom(
    'a%2Fb', '%2F', '%2f..%2f', '..', '.', '%2E%2E', '', 'key=', 'key==', 'key=%20', 'key=a', 'key=ab', 'KEY=ab', 'key%3Dab', 'key=a%2Fb',
    'key=%zz', 'key=%', `key=${'k'.repeat(257)}`, 'key=does-not-exist', 'key=seeded-0', '%zz', '%', '%00', '%0A', 'a%0Ab', '%0D%0AX-Injected:%201', '%22', '%5C', '%7F', '%20', '%C3%A9', '%F0%9F%98%80', '%ED%A0%80',
    'uri-parameter-one=', 'uri-parameter-one=%2F', NONEXISTENT_ID, NONEXISTENT_ID.toUpperCase(), `${NONEXISTENT_ID}%00`, 'resource', 'images',
  ),
  fc.integer({ min: 257, max: 3000 }).map((length) => 'x'.repeat(length)),
  fc.integer({ min: 100, max: 700 }).map((length) => '%C3%A9'.repeat(length)),
);

const odd = {
  /** Authorization values that are no valid bearer token: every project route must answer 401. */
  authorization: fc.oneof(
    fc.constantFrom(
      '', 'Bearer', 'Bearer ', `Bearer  ${token}`, `Bearer ${token} extra`, token, `Basic ${Buffer.from('a:b').toString('base64')}`,
      `Bearer ${token.slice(0, -40)}${token.slice(-40, -20).split('').reverse().join('')}${token.slice(-20)}`, `Bearer ${'a'.repeat(5000)}`,
      `Bearer ${token}, Bearer ${token}`, 'Bearer a.b.c', 'Bearer ...', `Digest ${token}`,
      `Bearer ${forgeToken(validClaims({ scope: SCOPES.join(' '), exp: Math.floor(Date.now() / 1000) - 60 }))}`,
      `Bearer ${forgeToken(validClaims({ scope: SCOPES.join(' '), aud: 'someone-else' }))}`,
      `Bearer ${forgeToken(validClaims({ scope: SCOPES.join(' ') }), { alg: 'none' })}`,
      `Bearer ${forgeToken(validClaims({ scope: SCOPES.join(' '), exp: undefined }))}`,
    ),
    fc.string({ unit: fc.oneof(queryChar, latin1), maxLength: 80 }).map((junk) => `Bearer ${junk}x`).filter((value) => !value.includes(' ', 7)),
    fc.string({ unit: fc.oneof(queryChar, latin1), maxLength: 80 }),
  ),
  correlationId: fc.oneof(
    fc.stringMatching(/^[\w.:/-]{1,256}$/),
    fc.constantFrom('', ' ', 'a b', 'é', '<script>', 'a\tb', 'x'.repeat(257), 'x'.repeat(256), 'x'.repeat(5000), '../../etc', ' padded ', 'a,b'),
    fc.string({ unit: fc.oneof(queryChar, latin1), maxLength: 40 }),
  ),
};

/**
 * Inputs that answered 5xx (or crashed the local stack) before their fixes: every run tries them
 * first, whatever the generators draw. See the Reliability section of docs/design.md.
 */
const REGRESSIONS = {
  bodies: [
    // Deep nesting: zod's recursion exhausted the stack (500) on PUT json-serializable-primitive-type, POST and update.
    [printable({ kind: 'deep nesting', text: Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`) }), 'application/json'],
    [printable({ kind: 'deep nesting in a draft', text: Buffer.from(`{"objectTypeProperty":{"arrayOfIntExample":[${'['.repeat(5000)}${']'.repeat(5000)}]}}`) }), 'application/json'],
    // Numbers beyond 2^53: the DynamoDB marshaller refused them (500) though the schema accepts them.
    [printable({ kind: 'storable number 1e20', text: Buffer.from('{"objectTypeProperty":{"arrayOfFloatExample":[1e20]}}'), draft: { objectTypeProperty: { arrayOfFloatExample: [1e20] } } }), 'application/json'],
  ] as [FuzzBody, string | undefined][],
  // A lower id bound over 1 KB: DynamoDB refused the key condition (500).
  queries: [[`where=${encodeURIComponent(`id > "${'z'.repeat(1100)}"`)}`]] as [string][],
  paths: [
    // An id segment over 1 KB: DynamoDB refused the key (500) on GET, POST and DELETE /{id}.
    ['x'.repeat(1100), [], 'GET'],
    ['%C3%A9'.repeat(500), [], 'GET'],
    // A projectKey with a line feed: the 403's WWW-Authenticate header carried it and crashed the local stack.
    ['a%0Ab', [], 'GET'],
    // Backslashes: the local gateway parsed the target as a WHATWG URL, read `/\` as an authority and failed (500).
    ['\\@\\', [], 'GET'],
  ] as [string, string[], string][],
  headers: [] as [string, string | undefined, string | undefined, boolean][],
};

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  devToken = await tokenFor();
  // A few resources, so reads by id and key have something to find, and a JSON value to keep.
  seeded = [];
  for (const key of ['seeded-0', 'seeded-1', undefined]) {
    const existing = key ? await call('GET', `/${PROJECT}/resource/key=${key}`, { token }) : undefined;
    if (existing?.status === 200) {
      seeded.push(existing.body);
      continue;
    }
    const created = await call('POST', `/${PROJECT}/resource`, { token, json: { ...(key ? { key } : {}), ...draftExample } });
    expect(created.status).toBe(201);
    seeded.push(created.body);
  }
  expect((await call('PUT', `/${PROJECT}/resource/json-serializable-primitive-type`, { token, json: { seeded: true } })).status).toBe(200);
});

describe('fuzzing every route: no 5xx, JSON error shape, correlation id, nothing written by refusals', () => {
  it('malformed bodies (random JSON, bytes, truncated, deep nesting, huge numbers, wrong types) to every route', async () => {
    await withStoreUnchanged(
      () =>
        fc.assert(
          fc.asyncProperty(fc.oneof({ weight: 6, arbitrary: malformedBody }, { weight: 1, arbitrary: storableDraft }), contentType, async (fuzz, type) => {
            const chosenType = fuzz.kind === 'random bytes' ? type : (type ?? 'application/json');
            await Promise.all(
              allRoutes.map((route) =>
                sendChecked(
                  route,
                  {
                    method: route.method,
                    path: pathOf(route),
                    headers: headersFor(route, route.method === 'HEAD' ? undefined : chosenType),
                    body: route.method === 'HEAD' ? undefined : fuzz.text,
                  },
                  fuzz.draft,
                ),
              ),
            );
            // The same body again as plain application/json, where the JSON routes parse it.
            await Promise.all(
              allRoutes
                .filter((route) => route.body === 'json')
                .map((route) => sendChecked(route, { method: route.method, path: pathOf(route), headers: headersFor(route, 'application/json'), body: fuzz.text }, fuzz.draft)),
            );
          }),
          { numRuns: NUM_RUNS, seed: SEED, examples: REGRESSIONS.bodies },
        ),
      { imagesToo: true },
    );
  }, 120_000);

  it('query strings (random keys and values, bad percent-encoding, repeated parameters, where/sort garbage) on every route', async () => {
    await withStoreUnchanged(
      () =>
        fc.assert(
          fc.asyncProperty(queryString, async (query) => {
            await Promise.all(
              allRoutes.map((route) => {
                // Reads find a real resource, so the query is read through; writes aim at nothing.
                const id = route.handler === 'get-resource' ? seeded[0]!.id : NONEXISTENT_ID;
                const { body, contentType: type } = refusedBody(route);
                const path = `${pathOf(route, { id })}?${query}`;
                const uploadQuery = route.handler === 'upload-image' ? `${path}&sku=fuzz-sku` : path;
                return sendChecked(route, { method: route.method, path: uploadQuery, headers: headersFor(route, type), body }).then(({ answer, body: answered }) => {
                  if (route.handler === 'upload-image' && answer.status === 200) {
                    // Whatever the filename said, the object stays under the project's image prefix.
                    for (const address of answered.stagedImages as string[]) {
                      expect(new URL(address).pathname).toMatch(new RegExp(`/${IMAGES_PROJECT}/images/[0-9a-f-]{36}/[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$`));
                    }
                  }
                });
              }),
            );
          }),
          { numRuns: NUM_RUNS, seed: SEED, examples: REGRESSIONS.queries },
        ),
      { imagesToo: false },
    );
  }, 120_000);

  it('paths (random segments, encoded slashes, key= variants, very long segments) in every route parameter, and free-form', async () => {
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE', 'PROPFIND'];
    await withStoreUnchanged(
      () =>
        fc.assert(
          fc.asyncProperty(
            segment,
            fc.array(segment, { minLength: 0, maxLength: 6 }),
            fc.constantFrom(...methods),
            async (junk, freeSegments, method) => {
              const requests: Promise<unknown>[] = [];
              for (const route of allRoutes) {
                const { body, contentType: type } = refusedBody(route);
                for (const name of route.path.match(/\{(\w+)\}/g)?.map((parameter) => parameter.slice(1, -1)) ?? []) {
                  requests.push(
                    sendChecked(route, {
                      method: route.method,
                      path: pathOf(route, { [name]: name === 'uriParameterOne' && junk.length % 2 ? `uri-parameter-one=${junk}` : junk }),
                      headers: headersFor(route, type),
                      body: route.method === 'HEAD' ? undefined : body,
                    }),
                  );
                }
              }
              // Free-form paths, under a project and at the root, with any method.
              const free = [`/${PROJECT}/${freeSegments.join('/')}`, `/${freeSegments.join('/')}`, `/${PROJECT}/resource/${junk}/${junk}`];
              for (const path of free.map((long) => long.slice(0, 8000))) {
                requests.push(
                  sendChecked(undefined, {
                    method,
                    path,
                    headers: { authorization: BEARER, ...(method === 'HEAD' || method === 'GET' ? {} : { 'content-type': 'application/json' }) },
                    body: method === 'HEAD' || method === 'GET' ? undefined : Buffer.from('{}'),
                  }),
                );
              }
              await Promise.all(requests);
            },
          ),
          { numRuns: NUM_RUNS, seed: SEED, examples: REGRESSIONS.paths },
        ),
      { imagesToo: true },
    );
  }, 120_000);

  it('headers (content-type variants, odd Authorization values, X-Correlation-ID junk) on every route', async () => {
    await withStoreUnchanged(
      () =>
        fc.assert(
          fc.asyncProperty(
            fc.oneof({ weight: 2, arbitrary: odd.authorization }, { weight: 1, arbitrary: fc.constantFrom(BEARER, `bearer ${token}`, `BEARER ${token}`, `Bearer ${devToken}`) }),
            fc.option(odd.correlationId, { nil: undefined }),
            contentType,
            fc.boolean(),
            async (authorization, correlationId, type, duplicateCorrelationId) => {
              const valid = /^bearer /i.test(authorization) && authorization.slice(7) === token;
              const foreign = authorization === `Bearer ${devToken}`;
              await Promise.all(
                allRoutes.map(async (route) => {
                  const { body } = refusedBody(route);
                  const headers: Record<string, string | string[]> = { ...headersFor(route, route.method === 'HEAD' ? undefined : type), authorization };
                  if (correlationId !== undefined) headers['x-correlation-id'] = duplicateCorrelationId ? [correlationId, correlationId] : correlationId;
                  const raw = { method: route.method, path: pathOf(route), headers, body: route.method === 'HEAD' ? undefined : body };
                  const { answer, body: answered } = await sendChecked(route, raw);
                  if (route.access.kind !== 'project') return;
                  const detail = `${route.method} ${route.path} with Authorization ${JSON.stringify(authorization.slice(0, 80))}`;
                  if (foreign) expect(answer.status, detail).toBe(403);
                  else if (!valid) {
                    expect(answer.status, detail).toBe(401);
                    expect(answer.headers['www-authenticate'], detail).toMatch(/^Bearer/);
                    if (route.method !== 'HEAD') expect(answered.errors[0].code, detail).toBe('invalid_token');
                  } else expect([401, 403], detail).not.toContain(answer.status);
                }),
              );
            },
          ),
          { numRuns: NUM_RUNS, seed: SEED, examples: REGRESSIONS.headers },
        ),
      { imagesToo: true },
    );
  }, 120_000);
});
