import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { devClient, draftExample, uniqueKey } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * What a request leaves in the logs at the level the stack deploys (INFO): the real handlers,
 * through the local gateway and its authorizer, against the suite's DynamoDB Local. Lambda hands
 * CloudWatch Logs one event per line the function writes; the stack's metric filters read these
 * lines (infra/constructs/monitoring.ts).
 */
let gateway: InProcessGateway;
beforeAll(async () => {
  gateway = await startInProcessGateway({ AWS_LAMBDA_LOG_LEVEL: 'ERROR' }); // its warm-up request stays quiet
  process.env.AWS_LAMBDA_LOG_LEVEL = 'INFO'; // as Lambda sets it from applicationLogLevelV2; stop() removes it
});
afterAll(() => gateway?.stop());
afterEach(() => vi.restoreAllMocks());

/** The lines written to stdout while `run` runs, parsed. */
async function linesOf<T>(run: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[]; text: string }> {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const result = await run();
  vi.restoreAllMocks();
  const text = written.join('');
  return { result, lines: text.split('\n').filter(Boolean).map((line) => JSON.parse(line)), text };
}

describe('one INFO line per request, with every field issue 14 asks for', () => {
  it.each([
    ['a create', 'POST', '/demo/resource', () => ({ key: uniqueKey(), ...draftExample }), 201, 'POST /{projectKey}/resource'],
    ['a read of a missing key', 'GET', `/demo/resource/key=${uniqueKey('missing')}`, () => undefined, 404, 'GET /{projectKey}/resource/{id}'],
  ])('%s (%s %s)', async (_, method, url, body, status, route) => {
    const { result, lines, text } = await linesOf(() => gateway.send(method, url, body()));
    expect(result.answer.statusCode).toBe(status);
    expect(lines).toEqual([
      {
        level: 'INFO',
        route,
        status,
        ms: expect.any(Number),
        project: 'demo',
        clientId: devClient.clientId,
        correlationId: result.answer.headers!['X-Correlation-ID'],
      },
    ]);
    expect(text).not.toMatch(/Bearer|access_token|eyJ/);
  });
});
