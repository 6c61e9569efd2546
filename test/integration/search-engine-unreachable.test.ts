import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/aws/deadline';
import { draftExample } from './api-client';
import { startInProcessGateway, type InProcessGateway } from './in-process';

/**
 * The search engine unreachable: search answers 503 with Retry-After within the request, and every
 * other endpoint of the same process answers as usual. The engine here is a closed port.
 */
let gateway: InProcessGateway;

const closedPort = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
};

beforeAll(async () => {
  gateway = await startInProcessGateway({ SEARCH_DATABASE_URL: `postgres://search:secret@127.0.0.1:${await closedPort()}/search` });
});

afterAll(() => {
  gateway?.stop();
});

const body = (observed: { answer: { body?: unknown } }) => JSON.parse(observed.answer.body as string);

describe('search with its engine unreachable', () => {
  it('answers 503 ServiceUnavailable with Retry-After at once; a read by id in the same process still answers', async () => {
    const created = await gateway.send('POST', '/demo/resource', draftExample);
    expect(created.answer.statusCode).toBe(201);
    const started = Date.now();
    const search = await gateway.send('GET', '/demo/resource/searchApiPattern?text.en=dog');
    expect(search.answer.statusCode).toBe(503);
    expect(search.answer.headers?.['Retry-After'] ?? search.answer.headers?.['retry-after']).toBe('1');
    expect(body(search).errors[0].code).toBe('ServiceUnavailable');
    expect(JSON.stringify(body(search))).not.toMatch(/secret|127\.0\.0\.1|ECONNREFUSED/);
    // Within the request's deadline, not at the function's timeout.
    expect(Date.now() - started).toBeLessThan((FUNCTION_TIMEOUT_SECONDS * 1000) / 2);
    const read = await gateway.send('GET', `/demo/resource/${body(created).id}`);
    expect(read.answer.statusCode).toBe(200);
  });
});
