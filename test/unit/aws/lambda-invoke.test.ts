import { LambdaClient } from '@aws-sdk/client-lambda';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsLambdaInvoker } from '../../../shared/aws/lambda';

/** The Lambda invoker against a stand-in of Lambda's HTTP endpoint. */
let server: Server;
let endpoint: string;
let received: { path: string; body: string; invocationType: unknown }[] = [];
let answer: (response: ServerResponse) => void = (response) => response.writeHead(200).end('{}');

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url!, body: Buffer.concat(chunks).toString('utf8'), invocationType: request.headers['x-amz-invocation-type'] });
      answer(response);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const client = () => new LambdaClient({ region: 'eu-central-1', endpoint, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
const payload = '{"action":"a","body":"é"}';

describe('the Lambda invoker', () => {
  it("invokes synchronously and reads the function's answer and Lambda's FunctionError", async () => {
    received = [];
    const invoker = new AwsLambdaInvoker(client);
    answer = (response) => response.writeHead(200, { 'x-amz-function-error': 'Unhandled' }).end('{"errorMessage":"ü"}');
    expect(await invoker.invoke('gr-extension-a:live', payload, AbortSignal.timeout(2000))).toEqual({ functionError: 'Unhandled', payload: '{"errorMessage":"ü"}' });
    answer = (response) => response.writeHead(200).end('{"statusCode":201,"body":{}}');
    expect(await invoker.invoke('gr-extension-b', '{}', AbortSignal.timeout(2000))).toEqual({ payload: '{"statusCode":201,"body":{}}' });
    expect(received).toEqual([
      { path: '/2015-03-31/functions/gr-extension-a%3Alive/invocations', body: payload, invocationType: 'RequestResponse' },
      { path: '/2015-03-31/functions/gr-extension-b/invocations', body: '{}', invocationType: 'RequestResponse' },
    ]);
  });

  it("fails with Lambda's own refusal, named as Lambda names it", async () => {
    answer = (response) =>
      response.writeHead(404, { 'x-amzn-errortype': 'ResourceNotFoundException' }).end('{"Type":"User","message":"Function not found: f"}');
    const refused = await new AwsLambdaInvoker(client).invoke('f', payload, AbortSignal.timeout(2000)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'ResourceNotFoundException', message: 'Function not found: f' });
  });

  it('gives up when the deadline passes', async () => {
    answer = (response) => setTimeout(() => response.writeHead(200).end('{}'), 1000);
    const failed = await new AwsLambdaInvoker(client).invoke('f', payload, AbortSignal.timeout(100)).catch((error: unknown) => error as Error);
    expect((failed as Error).name).toBe('AbortError');
  });

  it('asks for its client only when it invokes (static and HTTP bindings never build one)', async () => {
    answer = (response) => response.writeHead(200).end('{}');
    let asked = 0;
    const invoker = new AwsLambdaInvoker(() => (asked++, client()));
    expect(asked).toBe(0);
    await invoker.invoke('f', payload, AbortSignal.timeout(2000));
    expect(asked).toBe(1);
  });
});
