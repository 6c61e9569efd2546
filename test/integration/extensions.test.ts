import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { generateSecret, verifySignature } from '../../shared/domain/extensions/signing';
import { DynamoDbExtensionStore } from '../../shared/store/dynamodb/extension-store';
import { call, tokenFor } from './api-client';

/**
 * The extension actions and the JSON value through HTTP against the local stack, with a real extension handler: a node:http
 * server on 127.0.0.1 in this process (local mode allows loopback handlers). Bindings are made
 * with the CLI as a child process, or with the store adapter directly.
 */
const run = promisify(execFile);
const dataDir = inject('dataDir');
const local = JSON.parse(readFileSync(join(dataDir, 'endpoints.json'), 'utf8')) as { dynamoDbEndpoint: string; tableName: string };
const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: local.dynamoDbEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
);
const bindings = new DynamoDbExtensionStore(db, local.tableName);

const cartExample = JSON.parse(readFileSync(new URL('../fixtures/examples/action-success.json', import.meta.url), 'utf8'));

/** The CLI, as an operator runs it (`npm run extension -- ...`), against the stack's table. */
async function cli(...args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOCAL_DATA_DIR: dataDir };
  delete env.TABLE_NAME;
  delete env.AWS_ENDPOINT_URL_DYNAMODB;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/extension-cli.ts', ...args], { env });
  return stdout;
}

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  signature: ReturnType<typeof verifySignature>;
}

/** The extension handler: each test says how it answers; every request is recorded and its signature checked. */
let server: Server;
let handlerUrl: string;
let secret = '';
let answer: (request: Received, response: ServerResponse) => void;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const seen: Received = {
        method: request.method!,
        url: request.url!,
        headers: request.headers,
        body,
        signature: verifySignature(secret, request.headers['x-extension-signature'] as string | undefined, {
          method: request.method!,
          pathAndQuery: request.url!,
          body,
        }),
      };
      received.push(seen);
      answer(seen, response);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  handlerUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

const json = (status: number, body: unknown) => (_request: Received, response: ServerResponse) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Binds namespace-action of `project` to the test handler through the store, with a fresh secret. */
async function bindHandler(project: string, path = '/hooks/action') {
  secret = generateSecret();
  await bindings.put({
    projectKey: project,
    action: 'namespace-action',
    target: { kind: 'http', url: `${handlerUrl}${path}`, secret },
    createdAt: new Date().toISOString(),
  });
}

describe('extension actions (/{projectKey}/resource/namespace-action…)', () => {
  beforeEach(() => {
    answer = json(200, { ok: true });
  });

  it('forwards POST with method, query, JSON body and a verifiable signature, and relays status and body (CLI binding)', async () => {
    const out = JSON.parse(await cli('bind', '--project', 'demo', '--action', 'namespace-action', '--url', `${handlerUrl}/hooks/cart?fixed=yes`, '--json'));
    expect(out).toMatchObject({ projectKey: 'demo', action: 'namespace-action', target: { kind: 'http', url: `${handlerUrl}/hooks/cart?fixed=yes` } });
    expect(out.target.secret).toBeUndefined();
    secret = out.secret;
    expect(secret).toMatch(/^gres_/);

    answer = (request, response) =>
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: JSON.parse(request.body), query: request.url }));
    const token = await tokenFor();
    const body = { cartId: 'c-1', lines: [1, 2, { nested: null }], note: 'süß' };
    const result = await call('POST', '/demo/resource/namespace-action?x=1&x=2&y=a%20b&z=c,d', {
      token,
      json: body,
      headers: { 'x-correlation-id': 'ext-corr-1' },
    });

    expect(result.status).toBe(201);
    expect(result.body).toEqual({ echoed: body, query: '/hooks/cart?fixed=yes&x=1&x=2&y=a%20b&z=c%2Cd' });
    expect(result.headers.get('x-correlation-id')).toBe('ext-corr-1');
    const seen = received.at(-1)!;
    expect(seen).toMatchObject({ method: 'POST', url: '/hooks/cart?fixed=yes&x=1&x=2&y=a%20b&z=c%2Cd', body: JSON.stringify(body) });
    expect(seen.signature).toEqual({ valid: true });
    expect(seen.headers['x-extension-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-extension-action': 'namespace-action',
      'x-extension-project': 'demo',
      'x-correlation-id': 'ext-corr-1',
    });
    // The signature covers the body: a tampered body does not verify.
    expect(verifySignature(secret, seen.headers['x-extension-signature'] as string, { method: 'POST', pathAndQuery: seen.url, body: '{}' }).valid).toBe(false);
  });

  it('forwards GET without a body, and relays the handler error status and body as they are', async () => {
    await bindHandler('demo');
    answer = json(409, { problem: 'busy', retry: true });
    const result = await call('GET', '/demo/resource/namespace-action?q=1', { token: await tokenFor('view_test:demo') });
    expect(result).toMatchObject({ status: 409, body: { problem: 'busy', retry: true } });
    const seen = received.at(-1)!;
    expect(seen).toMatchObject({ method: 'GET', url: '/hooks/action?q=1', body: '' });
    expect(seen.headers['content-type']).toBeUndefined();
    expect(seen.signature).toEqual({ valid: true });
  });

  it('relays every JSON answer, including null and a bare string', async () => {
    await bindHandler('demo');
    for (const value of [null, 'plain', 0, [], {}]) {
      answer = json(200, value);
      const result = await call('GET', '/demo/resource/namespace-action', { token: await tokenFor() });
      expect(result).toMatchObject({ status: 200, body: value });
    }
  });

  it('answers 504 ExtensionNoResponse when the handler takes 3 s', async () => {
    await bindHandler('demo');
    answer = (_request, response) => setTimeout(() => json(200, { late: true })(_request, response), 3_000).unref();
    const started = Date.now();
    const result = await call('POST', '/demo/resource/namespace-action', { token: await tokenFor(), json: { a: 1 } });
    const elapsed = Date.now() - started;
    expect(result.status).toBe(504);
    expect(result.body).toMatchObject({ statusCode: 504, errors: [{ code: 'ExtensionNoResponse', action: 'namespace-action' }] });
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('answers 502 ExtensionBadResponse for a non-JSON answer, an oversized answer and a redirect', async () => {
    await bindHandler('demo');
    const token = await tokenFor();
    const cases: ((request: Received, response: ServerResponse) => void)[] = [
      (_r, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
      (_r, response) => response.writeHead(200).end('<html>not json</html>'),
      (_r, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ blob: 'x'.repeat(1024 * 1024) })),
      (_r, response) => response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    ];
    for (const behaviour of cases) {
      answer = behaviour;
      const result = await call('GET', '/demo/resource/namespace-action', { token });
      expect(result.status).toBe(502);
      expect(result.body).toMatchObject({ statusCode: 502, errors: [{ code: 'ExtensionBadResponse', action: 'namespace-action' }] });
    }
  });

  it('answers 502 ExtensionBadResponse (not 500) for a deeply nested JSON answer; 100 levels still pass', async () => {
    await bindHandler('demo');
    const token = await tokenFor();
    answer = (_r, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(100_000) + ']'.repeat(100_000));
    const deep = await call('GET', '/demo/resource/namespace-action', { token });
    expect(deep.status).toBe(502);
    expect(deep.body).toMatchObject({ statusCode: 502, errors: [{ code: 'ExtensionBadResponse', message: expect.stringContaining('deeper than 100 levels') }] });
    answer = (_r, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('['.repeat(100) + ']'.repeat(100));
    expect((await call('GET', '/demo/resource/namespace-action', { token })).status).toBe(200);
  });

  it('answers 502 when the bound address is not allowed (a private address), without calling it', async () => {
    await bindings.put({
      projectKey: 'other',
      action: 'namespace-action',
      target: { kind: 'http', url: 'http://169.254.169.254/latest/meta-data/', secret: generateSecret() },
      createdAt: new Date().toISOString(),
    });
    try {
      const result = await call('GET', '/other/resource/namespace-action', { token: await tokenFor() });
      expect(result.status).toBe(502);
      expect(result.body.errors[0]).toMatchObject({ code: 'ExtensionBadResponse' });
      // The caller learns that the target may not be called, not where it is (the log has that).
      expect(result.body.message).toContain('may not be called');
      expect(result.body.message).not.toContain('169.254');
      expect(result.body.message).not.toContain('metadata');
    } finally {
      await bindings.delete('other', 'namespace-action');
    }
  });

  it('the CLI binds a Lambda function by name and refuses its ARN, which may be of another account or region than the service can invoke', async () => {
    try {
      const refused = await cli('bind', '--project', 'other', '--action', 'namespace-action', '--lambda', 'arn:aws:lambda:us-east-1:999999999999:function:gr-extension-cart').then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toContain('not an ARN: the service invokes functions of its own AWS account and region only');
      expect(await bindings.get('other', 'namespace-action')).toBeUndefined();

      const bound = JSON.parse(await cli('bind', '--project', 'other', '--action', 'namespace-action', '--lambda', 'gr-extension-cart:live', '--json'));
      expect(bound).toMatchObject({ target: { kind: 'lambda', functionName: 'gr-extension-cart:live' } });
      expect(await bindings.get('other', 'namespace-action')).toMatchObject({ target: { kind: 'lambda', functionName: 'gr-extension-cart:live' } });
    } finally {
      await bindings.delete('other', 'namespace-action');
    }
  });

  it('answers 404 naming the action when the project bound nothing', async () => {
    await bindings.delete('other', 'namespace-action');
    const token = await tokenFor();
    for (const method of ['GET', 'POST']) {
      const result = await call(method, '/other/resource/namespace-action', { token });
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ statusCode: 404, errors: [{ code: 'ResourceNotFound', action: 'namespace-action' }] });
      expect(result.body.message).toContain('namespace-action');
    }
  });

  it('answers the declared cart example for GET …/namespace-action-with-example by default; a project may rebind it to a static document and unbind it again', async () => {
    const token = await tokenFor('view_test:other');
    expect(await call('GET', '/other/resource/namespace-action-with-example', { token })).toMatchObject({ status: 200, body: cartExample });

    const dir = await mkdtemp(join(tmpdir(), 'grs-ext-'));
    try {
      const document = { cartId: 'mine', lineItems: [], empty: null };
      await writeFile(join(dir, 'doc.json'), JSON.stringify(document));
      const out = await cli('bind', '--project', 'other', '--action', 'namespace-action-with-example', '--static', join(dir, 'doc.json'));
      expect(out).toContain('static document');
      expect(await call('GET', '/other/resource/namespace-action-with-example', { token })).toMatchObject({ status: 200, body: document });
      // Other projects keep the default.
      expect(await call('GET', '/demo/resource/namespace-action-with-example', { token: await tokenFor() })).toMatchObject({ status: 200, body: cartExample });

      const listed = JSON.parse(await cli('list', '--project', 'other', '--json'));
      expect(listed).toEqual([expect.objectContaining({ projectKey: 'other', action: 'namespace-action-with-example', target: { kind: 'static', statusCode: 200, document } })]);

      expect(await cli('unbind', '--project', 'other', '--action', 'namespace-action-with-example')).toContain('Unbound');
      expect(await call('GET', '/other/resource/namespace-action-with-example', { token })).toMatchObject({ status: 200, body: cartExample });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('checks the POST body: 415 for a non-JSON content type, 400 InvalidJsonInput for broken JSON', async () => {
    await bindHandler('demo');
    const token = await tokenFor();
    const before = received.length;
    const wrongType = await call('POST', '/demo/resource/namespace-action', { token, body: '{"a":1}', headers: { 'content-type': 'text/plain' } });
    expect(wrongType).toMatchObject({ status: 415, body: { errors: [{ code: 'UnsupportedMediaType' }] } });
    const broken = await call('POST', '/demo/resource/namespace-action', { token, body: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(broken).toMatchObject({ status: 400, body: { errors: [{ code: 'InvalidJsonInput' }] } });
    const huge = await call('POST', '/demo/resource/namespace-action', { token, json: { blob: 'x'.repeat(300 * 1024) } });
    expect(huge).toMatchObject({ status: 413, body: { errors: [{ code: 'RequestEntityTooLarge' }] } });
    expect(received.length).toBe(before);
  });

  it('needs manage_test for POST and accepts view_test for the reads', async () => {
    const viewer = await tokenFor('view_test:demo');
    expect((await call('POST', '/demo/resource/namespace-action', { token: viewer, json: {} })).status).toBe(403);
    expect((await call('GET', '/demo/resource/namespace-action-with-example', { token: viewer })).status).toBe(200);
    expect((await call('GET', '/other/resource/namespace-action-with-example', { token: viewer })).status).toBe(403);
  });
});

describe('JSON value (PUT /{projectKey}/resource/json-serializable-primitive-type)', () => {
  const path = '/demo/resource/json-serializable-primitive-type';

  it.each([
    ['an object', { a: 1, b: [true, null, 'x'], c: {} }],
    ['an empty object', {}],
    ['an array', [1, 'two', null, { three: 3 }]],
    ['an empty array', []],
    ['a string', 'raw string'],
    ['an empty string', ''],
    ['an integer', 7],
    ['a negative float', -12.5],
    ['zero', 0],
    ['true', true],
    ['false', false],
    ['null', null],
  ])('stores and answers %s', async (_name, value) => {
    const result = await call('PUT', path, { token: await tokenFor(), body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
    expect(result.body).toEqual(value);
    const { Item } = await db.send(
      new GetCommand({ TableName: local.tableName, Key: { pk: 'PROJECT#demo', sk: 'JSON_VALUE' }, ConsistentRead: true }),
    );
    expect(typeof Item?.json).toBe('string');
    expect(JSON.parse(Item!.json)).toEqual(value);
  });

  it('answers 400 InvalidJsonInput for a body that is not JSON, and keeps the stored value', async () => {
    const token = await tokenFor();
    await call('PUT', path, { token, json: { kept: true } });
    for (const body of ['{"a":', 'raw string', "{'a':1}", '']) {
      const result = await call('PUT', path, { token, body, headers: { 'content-type': 'application/json' } });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ statusCode: 400, errors: [{ code: 'InvalidJsonInput' }] });
    }
    const { Item } = await db.send(new GetCommand({ TableName: local.tableName, Key: { pk: 'PROJECT#demo', sk: 'JSON_VALUE' }, ConsistentRead: true }));
    expect(JSON.parse(Item!.json)).toEqual({ kept: true });
  });

  it('answers 415 for another content type and 403 without manage_test', async () => {
    expect((await call('PUT', path, { token: await tokenFor(), body: '1', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await call('PUT', path, { token: await tokenFor('view_test:demo'), json: 1 })).status).toBe(403);
  });

  it('keeps one value per project', async () => {
    await call('PUT', '/other/resource/json-serializable-primitive-type', { token: await tokenFor(), json: 'other value' });
    await call('PUT', path, { token: await tokenFor(), json: 'demo value' });
    const { Item } = await db.send(new GetCommand({ TableName: local.tableName, Key: { pk: 'PROJECT#other', sk: 'JSON_VALUE' }, ConsistentRead: true }));
    expect(JSON.parse(Item!.json)).toBe('other value');
  });
});

/**
 * `--stack` (scripts/service-table.ts, shared with `npm run client`): the CLI reads the stack's
 * TableName output from CloudFormation. Here CloudFormation is a node:http fake, reached through
 * the SDK's AWS_ENDPOINT_URL_CLOUDFORMATION; the table it names is the local stack's, which the
 * SDK reaches through AWS_ENDPOINT_URL_DYNAMODB. LOCAL_DATA_DIR points at an empty directory, so
 * nothing but the stack can name the table.
 */
describe('where the CLI finds the bindings: --stack', () => {
  let cloudFormation: Server;
  let cloudFormationUrl: string;
  let emptyDir: string;
  const describeStacks: { body: string; authorization: string }[] = [];

  beforeAll(async () => {
    emptyDir = await mkdtemp(join(tmpdir(), 'grs-ext-stack-'));
    cloudFormation = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        describeStacks.push({ body, authorization: String(request.headers.authorization) });
        const stackName = new URLSearchParams(body).get('StackName');
        const outputs =
          stackName === 'GenericResourceService-test'
            ? `<Outputs><member><OutputKey>TableName</OutputKey><OutputValue>${local.tableName}</OutputValue></member></Outputs>`
            : '<Outputs/>';
        response.writeHead(200, { 'content-type': 'text/xml' }).end(
          `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>` +
            `<StackName>${stackName}</StackName><StackStatus>CREATE_COMPLETE</StackStatus><CreationTime>2025-01-01T00:00:00Z</CreationTime>${outputs}` +
            `</member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></DescribeStacksResponse>`,
        );
      });
    });
    await new Promise<void>((done) => cloudFormation.listen(0, '127.0.0.1', done));
    cloudFormationUrl = `http://127.0.0.1:${(cloudFormation.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    cloudFormation.closeAllConnections();
    await new Promise((done) => cloudFormation.close(done));
    await rm(emptyDir, { recursive: true, force: true });
  });

  /** The CLI against "AWS": exit code and output, whatever the exit code. */
  function cliOnStack(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const { TABLE_NAME: _table, AWS_ENDPOINT_URL_DYNAMODB: _endpoint, AWS_REGION: _region, AWS_DEFAULT_REGION: _defaultRegion, AWS_PROFILE: _profile, AWS_SESSION_TOKEN: _token, ...inherited } =
      process.env;
    const env = {
      ...inherited,
      LOCAL_DATA_DIR: emptyDir,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormationUrl,
      AWS_ENDPOINT_URL_DYNAMODB: local.dynamoDbEndpoint,
    };
    return new Promise((done) => {
      execFile(process.execPath, ['--import', 'tsx', 'scripts/extension-cli.ts', ...args], { env, timeout: 30_000 }, (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('binds, lists and unbinds in the table named by the stack, in --region', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'grs-ext-'));
    try {
      await writeFile(join(dir, 'doc.json'), JSON.stringify({ via: 'stack' }));
      const stack = ['--stack', 'GenericResourceService-test', '--region', 'eu-central-1'];
      const bound = await cliOnStack('bind', '--project', 'stackcli', '--action', 'namespace-action', '--static', join(dir, 'doc.json'), ...stack);
      expect(bound.code, bound.stderr).toBe(0);
      expect(await bindings.get('stackcli', 'namespace-action')).toMatchObject({ target: { kind: 'static', document: { via: 'stack' } } });

      const listed = await cliOnStack('list', '--project', 'stackcli', ...stack);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(`Extension bindings in table ${local.tableName} of stack GenericResourceService-test for project stackcli:`);
      expect(listed.stdout).toContain('stackcli  namespace-action');

      const unbound = await cliOnStack('unbind', '--project', 'stackcli', '--action', 'namespace-action', ...stack);
      expect(unbound.code, unbound.stderr).toBe(0);
      expect(await bindings.get('stackcli', 'namespace-action')).toBeUndefined();

      expect(describeStacks.length).toBeGreaterThanOrEqual(3);
      for (const { body, authorization } of describeStacks) {
        expect(new URLSearchParams(body).get('Action')).toBe('DescribeStacks');
        expect(authorization).toContain('/eu-central-1/cloudformation/aws4_request');
      }
    } finally {
      await bindings.delete('stackcli', 'namespace-action');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a stack without a TableName output, and --stack together with --table', async () => {
    const noTable = await cliOnStack('list', '--stack', 'SomeOtherStack', '--region', 'eu-central-1');
    expect(noTable.code).toBe(1);
    expect(noTable.stderr).toContain('Stack SomeOtherStack has no TableName output');

    const both = await cliOnStack('list', '--stack', 'GenericResourceService-test', '--table', local.tableName);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Give either --stack or --table/--endpoint, not both.');
  });
});
