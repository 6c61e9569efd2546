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
  // Its warm-up request stays quiet; a query examines 2 resources at most, so that one can be past the budget.
  gateway = await startInProcessGateway({ AWS_LAMBDA_LOG_LEVEL: 'ERROR', QUERY_BUDGET_ITEMS: '2' });
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

describe('one INFO line per request, with every field issue 14 asks for, and the code of a refusal', () => {
  beforeAll(async () => {
    for (let created = 0; created < 3; created++) await gateway.send('POST', '/demo/resource', { key: uniqueKey(), ...draftExample });
  });

  it.each([
    ['a create', 'POST', '/demo/resource', () => ({ key: uniqueKey(), ...draftExample }), 201, 'POST /{projectKey}/resource', undefined],
    ['a read of a missing key', 'GET', `/demo/resource/key=${uniqueKey('missing')}`, () => undefined, 404, 'GET /{projectKey}/resource/{id}', 'ResourceNotFound'],
    ['a query past the budget', 'GET', `/demo/resource?where=${encodeURIComponent('objectTypeProperty(arrayOfIntExample contains 99999)')}`, () => undefined, 400, 'GET /{projectKey}/resource', 'QueryTimedOut'],
  ])('%s (%s %s)', async (_, method, url, body, status, route, error) => {
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
        // A refusal names its commercetools code: the QueryTimedOut metric counts these.
        ...(error ? { code: error } : {}),
      },
    ]);
    expect(text).not.toMatch(/Bearer|access_token|eyJ/);
  });
});
