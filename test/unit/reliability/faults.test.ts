import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Fault injection: the real handlers run in-process, with the shared AWS clients made to fail by a
 * middleware on their stacks. The fault sits below the SDK's retry middleware (step `deserialize`),
 * so the SDK's own retries of throttling and 5xx errors (3 attempts) are visible and counted.
 * No request leaves the process: every DynamoDB and S3 call ends in the injected middleware.
 */
const TABLE_NAME = 'faults-secret-table-name';
const BUCKET = 'faults-secret-bucket';
Object.assign(process.env, {
  TABLE_NAME,
  IMAGES_BUCKET: BUCKET,
  IMAGE_UPLOADS_BUCKET: `${BUCKET}-uploads`,
  IMAGE_BASE_URL: 'https://images.example.test',
  TOKEN_ISSUER: 'https://issuer.example.test',
  TOKEN_AUDIENCE: 'generic-resource-service',
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'AKIAFAULTINJECTION',
  AWS_SECRET_ACCESS_KEY: 'fault-injection-secret',
  // Nothing should ever connect; if a call slipped past the fault it would fail here, not in AWS.
  AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
  // Request lines (INFO) stay out of the test output; the errors are watched below.
  AWS_LAMBDA_LOG_LEVEL: 'WARN',
});
delete process.env.AWS_ENDPOINT_URL_S3;
delete process.env.AWS_PROFILE;

const { dynamoDb: dynamoDbClient, s3 } = await import('../../../shared/composition-root');
const dynamoDb = dynamoDbClient();
const { logger } = await import('../../../shared/observability/logger');
const { endpoints } = await import('../../../functions/endpoints');
const { routeTableOf } = await import('../../../shared/http/route-table');
const routes = routeTableOf(endpoints);

type Handler = (event: unknown, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
const handlers = new Map<string, Promise<Handler>>();
/** A function's handler, imported on first use as Lambda does at a cold start. */
const handlerNamed = (name: string) => {
  if (!handlers.has(name)) handlers.set(name, import(`../../../functions/${name}/handler.ts`).then((module) => module.handler as Handler));
  return handlers.get(name)!;
};

const draftExample = JSON.parse(readFileSync(new URL('../../fixtures/examples/object-test-type-draft.json', import.meta.url), 'utf8'));
const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

// ---------------------------------------------------------------------------------------------
// Events as API Gateway (payload 2.0) hands them to the functions, already authorized.

interface Call {
  label: string;
  method: string;
  /** The route's path template. */
  route: string;
  path: Record<string, string>;
  query?: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

function eventOf(call: Call) {
  const rawPath = call.route.replace(/\{(\w+)\}/g, (_, name: string) => call.path[name]!);
  const binary = Buffer.isBuffer(call.body);
  const headers: Record<string, string> = {
    host: 'api.example.test',
    'x-correlation-id': `faults-${call.label.replace(/[^\w]/g, '-')}`,
    ...(call.body === undefined ? {} : { 'content-type': binary ? 'image/gif' : 'application/json' }),
    ...call.headers,
  };
  const routeKey = `${call.method} ${call.route}`;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: call.query ?? '',
    headers,
    queryStringParameters: call.query ? Object.fromEntries(new URLSearchParams(call.query)) : undefined,
    pathParameters: call.path,
    requestContext: {
      accountId: '000000000000',
      apiId: 'faults',
      domainName: 'api.example.test',
      domainPrefix: 'api',
      http: { method: call.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'faults' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
      authorizer: {
        lambda: { authenticated: 'true', clientId: 'c', scope: 'manage_test:demo view_test:demo manage_products:demo', expiresAt: '9999999999' },
      },
    },
    body: call.body === undefined ? undefined : binary ? (call.body as Buffer).toString('base64') : (call.body as string),
    isBase64Encoded: binary,
  };
}

function contextOf(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-central-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'faults',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const handlerOf = (call: Call) => routes.find((route) => route.method === call.method && route.path === call.route)!.endpoint.name;

/** Which call a store request belongs to, across concurrent invocations. */
const currentCall = new AsyncLocalStorage<string>();

async function invoke(call: Call) {
  const name = handlerOf(call);
  const handler = await handlerNamed(name);
  const result = await currentCall.run(call.label, () => handler(eventOf(call), contextOf(name)));
  return { ...result, text: String(result.body ?? '') };
}

// ---------------------------------------------------------------------------------------------
// Faults.

interface Recorded {
  call: string | undefined;
  command: string;
  /** The SDK's attempt header, e.g. `attempt=2; max=3`. */
  attempt: string | undefined;
  input: Record<string, unknown>;
}

type Stack = { add: (...args: any[]) => void; remove: (name: string) => boolean };
const installed: { stack: Stack; name: string }[] = [];
/** Takes every injected fault off its client again. */
const removeFaults = () => {
  for (const { stack, name } of installed.splice(0)) stack.remove(name);
};
afterEach(() => {
  removeFaults();
  vi.restoreAllMocks();
});

/**
 * Makes every call of a client end in `outcome` (throw to fail, return an output to succeed),
 * below the retry middleware; returns the record of what was attempted.
 */
function inject(client: { middlewareStack: unknown }, outcome: (command: string, input: Record<string, unknown>) => unknown): Recorded[] {
  const recorded: Recorded[] = [];
  const name = `fault-${randomUUID()}`;
  const stack = client.middlewareStack as Stack;
  stack.add(
    (_next: unknown, context: { commandName: string }) => async (args: { input: Record<string, unknown>; request?: { headers?: Record<string, string> } }) => {
      recorded.push({ call: currentCall.getStore(), command: context.commandName, attempt: args.request?.headers?.['amz-sdk-request'], input: args.input });
      const output = outcome(context.commandName, args.input);
      return { output: { $metadata: { httpStatusCode: 200 }, ...(output as object) }, response: {} };
    },
    { step: 'deserialize', priority: 'high', name },
  );
  installed.push({ stack, name });
  return recorded;
}

/** An error as the SDK raises it for a service answer. */
const serviceError = (name: string, httpStatusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { name, $fault: httpStatusCode >= 500 ? 'server' : 'client', $metadata: { httpStatusCode, requestId: 'REQ123' }, ...extra });

const failing = (error: () => Error) => () => {
  throw error();
};

/** The SDK's attempt headers of a request retried until the client's maxAttempts (DynamoDB's default is 4, S3's 3). */
const allAttempts = async (client: { config: { maxAttempts: () => Promise<number> } }) => {
  const max = await client.config.maxAttempts();
  return Array.from({ length: max }, (_, index) => `attempt=${index + 1}; max=${max}`);
};
const firstAttemptOnly = async (client: { config: { maxAttempts: () => Promise<number> } }) => (await allAttempts(client)).slice(0, 1);

// ---------------------------------------------------------------------------------------------
// What the answers must be.

/** Words that would betray internals: exception names, the table, the bucket, stack frames, SDK text. */
const INTERNALS = [TABLE_NAME, BUCKET, 'Exception', 'InternalServerError', 'ServiceUnavailable', 'Rate exceeded', 'stack', ' at ', '.ts:', 'node_modules', 'amazonaws', 'dynamodb', 'DynamoDB', 'REQ123', 'AKIA'];

function expectNoInternals(text: string) {
  for (const word of INTERNALS) expect(text, `the body mentions ${word}`).not.toContain(word);
}

function expectOverCapacity(answer: Awaited<ReturnType<typeof invoke>>, call: Call) {
  const where = `${call.label}: ${answer.statusCode} ${answer.text}`;
  expect(answer.statusCode, where).toBe(503);
  expect(answer.headers?.['Retry-After'], where).toBe('1');
  expect(answer.headers?.['X-Correlation-ID'], where).toBe(eventOf(call).headers['x-correlation-id']);
  if (call.method === 'HEAD') {
    expect(answer.text, where).toBe('');
    return;
  }
  expect(JSON.parse(answer.text), where).toEqual({
    statusCode: 503,
    message: 'The service is over capacity. Please retry later.',
    errors: [{ code: 'OverCapacity', message: 'The service is over capacity. Please retry later.' }],
  });
  expectNoInternals(answer.text);
}

function expectGeneral(answer: Awaited<ReturnType<typeof invoke>>, call: Call) {
  const where = `${call.label}: ${answer.statusCode} ${answer.text}`;
  expect(answer.statusCode, where).toBe(500);
  expect(answer.headers?.['Retry-After'], where).toBeUndefined();
  if (call.method === 'HEAD') {
    expect(answer.text, where).toBe('');
    return;
  }
  expect(JSON.parse(answer.text), where).toEqual({
    statusCode: 500,
    message: 'An unexpected error occurred. Please retry later.',
    errors: [{ code: 'General', message: 'An unexpected error occurred. Please retry later.' }],
  });
  expectNoInternals(answer.text);
}

// ---------------------------------------------------------------------------------------------
// Every route that reaches DynamoDB, with a request that gets that far (search asks its engine
// first: test/integration/search-engine-unreachable.test.ts).

const id = randomUUID();
const R = '/{projectKey}/resource';
const demo = { projectKey: 'demo' };
const storeCalls: Call[] = [
  { label: 'get by id', method: 'GET', route: `${R}/{id}`, path: { ...demo, id } },
  { label: 'get by key', method: 'GET', route: `${R}/{id}`, path: { ...demo, id: 'key=some-key' } },
  { label: 'create keyless (PutItem)', method: 'POST', route: R, path: demo, body: JSON.stringify(draftExample) },
  { label: 'create keyed (transaction)', method: 'POST', route: R, path: demo, body: JSON.stringify({ key: 'k-1', ...draftExample }) },
  { label: 'put keyed', method: 'PUT', route: R, path: demo, body: JSON.stringify({ key: 'k-2', ...draftExample }) },
  { label: 'patch keyed', method: 'PATCH', route: R, path: demo, body: JSON.stringify({ key: 'k-3', ...draftExample }) },
  { label: 'update (UpdateItem)', method: 'POST', route: `${R}/{id}`, path: { ...demo, id }, body: JSON.stringify({ version: 1, actions: [{ action: 'changeSomeProperty', someProperty: 'x' }] }) },
  { label: 'update setKey', method: 'POST', route: `${R}/{id}`, path: { ...demo, id }, body: JSON.stringify({ version: 1, actions: [{ action: 'setKey', key: 'k-4' }] }) },
  { label: 'delete', method: 'DELETE', route: `${R}/{id}`, path: { ...demo, id }, query: 'version=1' },
  { label: 'query', method: 'GET', route: R, path: demo, query: 'where=version%20%3E%200' },
  { label: 'exists (HEAD)', method: 'HEAD', route: R, path: demo },
  { label: 'sorted query', method: 'GET', route: `${R}/sorted-query-parameters`, path: demo, query: 'sort=key%20desc' },
  {
    label: 'complex path',
    method: 'POST',
    route: `${R}/artificially-complex/path/{uriParameterOne}/{uriParameterTwo}`,
    path: { ...demo, uriParameterOne: 'uri-parameter-one=a', uriParameterTwo: 'b' },
    body: JSON.stringify({ id, createdAt: '2015-02-28T16:41:41.090Z' }),
  },
  { label: 'json value', method: 'PUT', route: `${R}/json-serializable-primitive-type`, path: demo, body: '{"a":1}' },
  { label: 'extension action', method: 'GET', route: `${R}/namespace-action`, path: demo },
  {
    label: 'token',
    method: 'POST',
    route: '/oauth/token',
    path: {},
    body: 'grant_type=client_credentials',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('c:s').toString('base64')}` },
  },
];

/** The structured logger's error channel, silenced and watched in every test. */
let logError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  logError = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
  // Retries without the wait: the SDK's backoff (and the store's jitter) is Math.random() × base × 2^attempt.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

describe('DynamoDB throttled or failing: 503 OverCapacity with Retry-After, after the SDK retried', () => {
  it('ProvisionedThroughputExceededException on every route that reads or writes: 503 after every SDK attempt (4), cause logged, no internals in the body', async () => {
    const recorded = inject(dynamoDb, failing(() => serviceError('ProvisionedThroughputExceededException', 400, 'Rate exceeded for table faults-secret-table-name')));
    const answers = await Promise.all(storeCalls.map(async (call) => [call, await invoke(call)] as const));
    const expected = await allAttempts(dynamoDb);
    expect(expected).toHaveLength(4);
    for (const [call, answer] of answers) {
      expectOverCapacity(answer, call);
      // The SDK retried the throttled request (with backoff) before the service answered 503.
      const attempts = recorded.filter((entry) => entry.call === call.label).map((entry) => entry.attempt);
      expect(attempts, call.label).toEqual(expected);
    }
    // The cause goes to the log (for operators), never to the body.
    expect(logError).toHaveBeenCalledTimes(storeCalls.length);
    for (const [, details] of logError.mock.calls) {
      expect((details as { error: Error }).error.cause).toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    }
  }, 30_000);

  for (const [name, status, message] of [
    ['ThrottlingException', 400, 'Rate of requests exceeds the allowed throughput.'],
    ['RequestLimitExceeded', 400, 'Throughput exceeds the current throughput limit for your account.'],
    ['InternalServerError', 500, 'Internal server error'],
    ['ServiceUnavailable', 503, 'Service unavailable'],
  ] as const) {
    it(`${name} (${status}): 503 OverCapacity after every attempt the SDK makes`, async () => {
      const recorded = inject(dynamoDb, failing(() => serviceError(name, status, message)));
      // A read for the plain errors, the transactional write for the others (the SDK's retry quota is shared).
      const call = name === 'ThrottlingException' || name === 'ServiceUnavailable' ? storeCalls[3]! : storeCalls[0]!;
      expectOverCapacity(await invoke(call), call);
      expect(recorded.map((entry) => entry.attempt)).toEqual(await allAttempts(dynamoDb));
    }, 30_000);
  }
});

describe('DynamoDB never answering: 503 ServiceUnavailable, after the SDK retried; for a write, the outcome unknown', () => {
  it('TimeoutError (an attempt past REQUEST_HANDLER\'s timeouts) on a read and on a transactional write', async () => {
    const timedOut = () => Object.assign(new Error('a request has exceeded the configured 2000 ms requestTimeout.'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
    for (const call of [storeCalls[0]!, storeCalls[3]!]) {
      const recorded = inject(dynamoDb, failing(timedOut));
      const answer = await invoke(call);
      expect(answer.statusCode, answer.text).toBe(503);
      expect(answer.headers?.['Retry-After']).toBe('1');
      expect(JSON.parse(answer.text).errors).toEqual([
        {
          code: 'ServiceUnavailable',
          message:
            call.method === 'GET'
              ? 'The service did not answer in time. Please retry.'
              : 'The service did not answer in time, so whether the change was made is unknown: read the resource by id or key to find out, or retry with the same Idempotency-Key.',
        },
      ]);
      expect(recorded.map((entry) => entry.attempt), call.label).toEqual(await allAttempts(dynamoDb));
      removeFaults();
    }
  });
});

describe('BatchGetItem leaving keys unprocessed (a throttled partition): asked again a bounded number of times, then 503', () => {
  const ids = [randomUUID(), randomUUID(), randomUUID()];
  const byIds: Call = { label: 'query by ids', method: 'GET', route: R, path: demo, query: `where=${encodeURIComponent(`id in (${ids.map((one) => `"${one}"`).join(', ')})`)}` };
  const unprocessed = (command: string, input: Record<string, unknown>) => {
    if (command !== 'BatchGetItemCommand') return {};
    const requested = (input.RequestItems as Record<string, unknown>)[TABLE_NAME];
    return { Responses: { [TABLE_NAME]: [] }, UnprocessedKeys: { [TABLE_NAME]: requested } };
  };

  it('every attempt unprocessed: six BatchGetItem requests, then 503 OverCapacity, the cause logged', async () => {
    const recorded = inject(dynamoDb, unprocessed);
    expectOverCapacity(await invoke(byIds), byIds);
    expect(recorded.map((entry) => entry.command)).toEqual(Array(6).fill('BatchGetItemCommand'));
    expect(logError).toHaveBeenCalledTimes(1);
  });

  it('unprocessed once, then answered: the page as if nothing happened', async () => {
    let first = true;
    const recorded = inject(dynamoDb, (command, input) => {
      if (!first) return { Responses: { [TABLE_NAME]: [] } };
      first = false;
      return unprocessed(command, input);
    });
    const answer = await invoke(byIds);
    expect(answer.statusCode, answer.text).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ count: 0, results: [] });
    expect(recorded.map((entry) => entry.command)).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
  });
});

describe('unknown DynamoDB errors: 500 General, logged, nothing leaked, not retried', () => {
  it('ValidationException on every route: 500 General, one attempt each, the cause in the log only', async () => {
    const recorded = inject(
      dynamoDb,
      failing(() => serviceError('ValidationException', 400, `One or more parameter values were invalid: table ${TABLE_NAME}`)),
    );
    const answers = await Promise.all(storeCalls.map(async (call) => [call, await invoke(call)] as const));
    for (const [call, answer] of answers) {
      expectGeneral(answer, call);
      expect(recorded.filter((entry) => entry.call === call.label).map((entry) => entry.attempt), call.label).toEqual(await firstAttemptOnly(dynamoDb));
    }
    // Each 500 is logged with its cause (the exception), which the body never shows.
    expect(logError).toHaveBeenCalledTimes(storeCalls.length);
    for (const [, details] of logError.mock.calls) {
      expect((details as { error: Error }).error).toMatchObject({ name: 'ValidationException' });
    }
  }, 30_000);

  it('an error without a name the service knows (a plain Error from a middleware): 500 General', async () => {
    inject(dynamoDb, failing(() => new Error(`socket hang up talking to ${TABLE_NAME}`)));
    for (const call of storeCalls.slice(0, 4)) expectGeneral(await invoke(call), call);
  });
});

describe('transaction conflicts: retried by the service, then 409', () => {
  it('a keyed create whose transaction always conflicts: 6 attempts, then 409 ConcurrentModification without currentVersion', async () => {
    const recorded = inject(dynamoDb, (command) => {
      if (command !== 'TransactWriteItemsCommand') return {};
      throw serviceError('TransactionCanceledException', 400, 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]', {
        CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
      });
    });
    const call = storeCalls[3]!;
    const answer = await invoke(call);
    expect(answer.statusCode).toBe(409);
    expect(JSON.parse(answer.text)).toEqual({
      statusCode: 409,
      message: 'Object was modified concurrently. Please retry.',
      errors: [{ code: 'ConcurrentModification', message: 'Object was modified concurrently. Please retry.' }],
    });
    expect(recorded.filter((entry) => entry.command === 'TransactWriteItemsCommand')).toHaveLength(6);
    expectNoInternals(answer.text);
  });
});

// ---------------------------------------------------------------------------------------------
// Images: S3 first, then DynamoDB; a failure in either leaves no half-written state.

const upload: Call = {
  label: 'upload',
  method: 'POST',
  route: `${R}/images`,
  path: demo,
  query: 'variant=7&filename=front.gif',
  body: GIF_1X1,
};

/** S3 that stores nothing but answers every PutObject and DeleteObject as done (or fails them). */
function fakeS3(fail?: { command: string; error: () => Error }) {
  return inject(s3(), (command) => {
    if (fail && command === fail.command) throw fail.error();
    return {};
  });
}

describe('image uploads under faults', () => {
  it('S3 failing (InternalError, retried by the SDK): 503 OverCapacity, and DynamoDB is never written', async () => {
    const s3Calls = fakeS3({ command: 'PutObjectCommand', error: () => serviceError('InternalError', 500, `We encountered an internal error in ${BUCKET}.`) });
    const dbCalls = inject(dynamoDb, () => ({}));
    expectOverCapacity(await invoke(upload), upload);
    expect(s3Calls.map((entry) => entry.command)).toEqual(['PutObjectCommand', 'PutObjectCommand', 'PutObjectCommand']);
    expect(s3Calls.map((entry) => entry.attempt)).toEqual(await allAttempts(s3()));
    expect(dbCalls).toEqual([]);
  }, 30_000);

  it('S3 refusing (AccessDenied, not retried): 503, nothing recorded', async () => {
    const s3Calls = fakeS3({ command: 'PutObjectCommand', error: () => serviceError('AccessDenied', 403, 'Access Denied') });
    const dbCalls = inject(dynamoDb, () => ({}));
    expectOverCapacity(await invoke(upload), upload);
    expect(s3Calls.map((entry) => entry.command)).toEqual(['PutObjectCommand']);
    expect(dbCalls).toEqual([]);
  });

  for (const [name, status, expected] of [
    ['ProvisionedThroughputExceededException', 400, 503],
    ['ValidationException', 400, 500],
  ] as const) {
    it(`S3 stored, then DynamoDB fails (${name}): ${expected}, and the object is deleted again`, async () => {
      const s3Calls = fakeS3();
      const dbCalls = inject(dynamoDb, failing(() => serviceError(name, status, `failure on ${TABLE_NAME}`)));
      const answer = await invoke(upload);
      if (expected === 503) expectOverCapacity(answer, upload);
      else expectGeneral(answer, upload);
      expect(dbCalls.length).toBeGreaterThan(0);
      const put = s3Calls.find((entry) => entry.command === 'PutObjectCommand')!;
      const deleted = s3Calls.filter((entry) => entry.command === 'DeleteObjectCommand');
      expect(put.input).toMatchObject({ Bucket: BUCKET, Key: expect.stringMatching(/^demo\/images\/[0-9a-f-]{36}\/front\.gif$/) });
      expect(deleted.map((entry) => entry.input)).toEqual([{ Bucket: BUCKET, Key: put.input.Key }]);
      // The delete came after the failed record, never before the put.
      expect(s3Calls.map((entry) => entry.command)).toEqual(['PutObjectCommand', 'DeleteObjectCommand']);
    }, 30_000);
  }

  it('S3 stored, DynamoDB fails, and the cleanup fails too: still 503, the orphan is logged for an operator', async () => {
    const s3Calls = fakeS3({ command: 'DeleteObjectCommand', error: () => serviceError('AccessDenied', 403, 'Access Denied') });
    inject(dynamoDb, failing(() => serviceError('ServiceUnavailable', 503, 'Service unavailable')));
    expectOverCapacity(await invoke(upload), upload);
    const key = s3Calls.find((entry) => entry.command === 'PutObjectCommand')!.input.Key;
    expect(logError).toHaveBeenCalledWith('could not remove the image of a failed upload', expect.objectContaining({ key }));
  }, 30_000);
});
