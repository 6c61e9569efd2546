import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { HttpRequest } from '@smithy/core/protocols';
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AwsLambdaInvoker, createLambdaInvoke, lambdaEndpoint, LambdaServiceError } from '../../../shared/aws/lambda';
import { settingsFromEnvironment } from '../../../shared/aws/signed-requests';

/**
 * The service invokes Lambda without `@aws-sdk/client-lambda` (shared/aws/lambda.ts): its request
 * must be the one the SDK client sends, signed so that AWS accepts it.
 */
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
const region = 'eu-central-1';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let server: Server;
let endpoint: string;
let received: Received[] = [];
let answer: (response: ServerResponse) => void = (response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}');

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method!, path: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(response);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const invoke = () => createLambdaInvoke({ region, endpoint, credentials: async () => credentials });
const payload = '{"action":"a","body":"é"}';

/**
 * What AWS does with a request: checks the body against its signed hash, signs the request again
 * from what it received, with the same date, and compares.
 */
async function signatureHolds(request: Received): Promise<boolean> {
  if (request.headers['x-amz-content-sha256'] !== createHash('sha256').update(request.body).digest('hex')) return false;
  const authorization = String(request.headers.authorization);
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
  const amzDate = String(request.headers['x-amz-date']);
  const date = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13)}`);
  const url = new URL(request.path, endpoint);
  const again = await new SignatureV4({ service: 'lambda', region, credentials, sha256: Sha256 }).sign(
    new HttpRequest({
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      headers: Object.fromEntries(signedHeaders.map((name) => [name, String(request.headers[name])])),
      body: request.body,
    }),
    { signingDate: date },
  );
  return again.headers.authorization === authorization;
}

describe('Lambda Invoke without the Lambda client', () => {
  it('sends the request the SDK client sends, signed for Lambda in the region', async () => {
    received = [];
    const client = new LambdaClient({ region, endpoint, credentials });
    await client.send(new InvokeCommand({ FunctionName: 'gr-extension-a:live', InvocationType: 'RequestResponse', Payload: Buffer.from(payload) }));
    client.destroy();
    await invoke()({ functionName: 'gr-extension-a:live', payload, signal: AbortSignal.timeout(2000) });
    const [sdk, ours] = received as [Received, Received];

    expect(ours.method).toBe(sdk.method);
    expect(ours.path).toBe(sdk.path);
    expect(ours.path).toBe('/2015-03-31/functions/gr-extension-a%3Alive/invocations');
    expect(ours.body).toBe(sdk.body);
    for (const name of ['content-type', 'content-length', 'x-amz-invocation-type', 'x-amz-security-token', 'host']) {
      expect(ours.headers[name], name).toBe(sdk.headers[name]);
    }
    const scope = (request: Received) => /Credential=AKIDEXAMPLE\/\d{8}\/([^,]+)/.exec(String(request.headers.authorization))?.[1];
    expect(scope(ours)).toBe(`${region}/lambda/aws4_request`);
    expect(scope(ours)).toBe(scope(sdk));
    const signed = (request: Received) => /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))![1]!.split(';');
    for (const name of ['host', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256', 'x-amz-invocation-type', 'content-type']) {
      if (signed(sdk).includes(name)) expect(signed(ours), name).toContain(name);
    }
    expect(await signatureHolds(sdk)).toBe(true); // the check itself is AWS's
    expect(await signatureHolds(ours)).toBe(true);
    expect(await signatureHolds({ ...ours, body: `${ours.body} ` })).toBe(false);
    expect(await signatureHolds({ ...ours, path: ours.path.replace('a%3Alive', 'b%3Alive') })).toBe(false);
  });

  it("reads the function's answer and Lambda's FunctionError header", async () => {
    answer = (response) => response.writeHead(200, { 'x-amz-function-error': 'Unhandled', 'x-amz-executed-version': '$LATEST' }).end('{"statusCode":200,"body":"ü"}');
    expect(await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(2000) })).toEqual({
      functionError: 'Unhandled',
      payload: '{"statusCode":200,"body":"ü"}',
    });
    answer = (response) => response.writeHead(200).end('{"statusCode":201,"body":{}}');
    expect(await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(2000) })).toEqual({ payload: '{"statusCode":201,"body":{}}' });
  });

  it("names Lambda's own refusals as the SDK does", async () => {
    answer = (response) =>
      response
        .writeHead(404, { 'x-amzn-errortype': 'ResourceNotFoundException:http://internal.amazon.com/coral/com.amazonaws.awsgirgamesh/' })
        .end('{"Type":"User","message":"Function not found: arn:aws:lambda:eu-central-1:1:function:f"}');
    const refused = await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(2000) }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LambdaServiceError);
    expect(refused).toMatchObject({ name: 'ResourceNotFoundException', statusCode: 404, message: 'Function not found: arn:aws:lambda:eu-central-1:1:function:f' });

    received = [];
    answer = (response) => response.writeHead(429).end('{"__type":"TooManyRequestsException","message":"Rate exceeded"}');
    expect(await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(2000) }).catch((error: unknown) => error)).toMatchObject({
      name: 'TooManyRequestsException',
      statusCode: 429,
    });
    expect(received).toHaveLength(3); // a throttle is tried again, as the SDK does, 3 attempts in all
    answer = (response) => response.writeHead(502).end('<html>bad gateway</html>');
    expect(await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(2000) }).catch((error: unknown) => error)).toMatchObject({ name: 'HTTP502' });
  });

  it('tries a throttled Invoke again and answers what the next attempt gets; other refusals at once', async () => {
    received = [];
    let calls = 0;
    answer = (response) => (++calls === 1 ? response.writeHead(429).end('{"message":"Rate exceeded"}') : response.writeHead(200).end('{"statusCode":200,"body":2}'));
    expect(await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(2000) })).toEqual({ payload: '{"statusCode":200,"body":2}' });
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toBe(payload);
    expect(received[1]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);

    received = [];
    answer = (response) => response.writeHead(500).end('{"__type":"ServiceException","message":"oops"}');
    expect(await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(2000) }).catch((error: unknown) => error)).toMatchObject({ name: 'ServiceException' });
    expect(received).toHaveLength(1); // the function may have run: not sent twice
  });

  it('gives up when the deadline passes', async () => {
    answer = (response) => setTimeout(() => response.writeHead(200).end('{}'), 1000);
    const started = performance.now();
    const failed = await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(100) }).catch((error: unknown) => error as Error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(900);

    // Backing off after a throttle never waits past the deadline.
    answer = (response) => response.writeHead(429).end('{}');
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.99); // the longest waits: 99 ms, then 198 ms
    try {
      const waited = performance.now();
      const throttled = await invoke()({ functionName: 'f', payload, signal: AbortSignal.timeout(20) }).then(
        () => new Error('answered'),
        (error: unknown) => error as Error,
      );
      expect(throttled.name).toBe('AbortError');
      expect(performance.now() - waited).toBeLessThan(80); // not the 99 ms wait
    } finally {
      random.mockRestore();
    }
  });

  it("finds Lambda's endpoint in the region's partition, or the one set", () => {
    expect(lambdaEndpoint({ region: 'eu-central-1' }).href).toBe('https://lambda.eu-central-1.amazonaws.com/');
    expect(lambdaEndpoint({ region: 'cn-north-1' }).href).toBe('https://lambda.cn-north-1.amazonaws.com.cn/');
    expect(lambdaEndpoint({ region: 'us-gov-west-1' }).href).toBe('https://lambda.us-gov-west-1.amazonaws.com/');
    expect(lambdaEndpoint({ region: 'eu-central-1', endpoint: 'http://127.0.0.1:9001' }).href).toBe('http://127.0.0.1:9001/');
  });

  it('is set up on the first call (static and HTTP bindings never pay for it), then reused', async () => {
    received = [];
    answer = (response) => response.writeHead(200).end('{"statusCode":200,"body":1}');
    let setUp = 0;
    const invoker = new AwsLambdaInvoker(() => {
      setUp++;
      return { region, endpoint, credentials: async () => credentials };
    });
    expect(setUp).toBe(0);
    expect(await invoker.invoke('gr-extension-x', payload, AbortSignal.timeout(2000))).toEqual({ payload: '{"statusCode":200,"body":1}' });
    await invoker.invoke('gr-extension-y', '{}', AbortSignal.timeout(2000));
    expect(setUp).toBe(1);
    expect(received.map((request) => [request.path, request.body])).toEqual([
      ['/2015-03-31/functions/gr-extension-x/invocations', payload],
      ['/2015-03-31/functions/gr-extension-y/invocations', '{}'],
    ]);
  });

  it("takes the region and an endpoint from Lambda's environment, as the SDK does", () => {
    expect(settingsFromEnvironment('LAMBDA', { AWS_REGION: 'eu-west-1' })).toEqual({ region: 'eu-west-1' });
    expect(settingsFromEnvironment('LAMBDA', { AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL: 'http://a', AWS_ENDPOINT_URL_LAMBDA: 'http://b' }).endpoint).toBe('http://b');
    expect(settingsFromEnvironment('LAMBDA', { AWS_DEFAULT_REGION: 'eu-west-2', AWS_ENDPOINT_URL: 'http://a' })).toEqual({ region: 'eu-west-2', endpoint: 'http://a' });
    expect(() => settingsFromEnvironment('LAMBDA', {})).toThrow(/AWS_REGION/);
  });
});
