import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { renderedDom } from '../support/chromium';
import { GIF_1X1 } from '../support/images';
import { baseUrl, call, draftExample, tokenFor, uniqueKey } from './api-client';

/**
 * CORS in local mode (CORS_ORIGINS, the counterpart of `-c corsOrigins`): the suite's stack allows
 * one origin, `browserOrigin`. A page served from there, in headless Chromium, calls the API and
 * the S3 emulator's presigned URL as a browser app would; every step goes through the browser's
 * CORS checks (preflights included), so a missing header fails the step.
 */
const browserOrigin = inject('browserOrigin');

/** The page's script: create a resource, then the two-step image upload; it writes what it saw into the DOM. */
function page(settings: { api: string; token: string; key: string; sku: string; gif: string }): string {
  const script = `
const settings = ${JSON.stringify(settings)};
const steps = [];
const show = () => (document.getElementById('steps').textContent = JSON.stringify(steps));
async function step(name, request) {
  try {
    const response = await request();
    const text = await response.text();
    steps.push({ name, status: response.status, correlationId: response.headers.get('x-correlation-id'), body: text ? JSON.parse(text) : null });
  } catch (error) {
    steps.push({ name, error: String(error) });
  }
  show();
  return steps[steps.length - 1];
}
(async () => {
  const auth = { authorization: 'Bearer ' + settings.token };
  await step('create', () => fetch(settings.api + '/demo/resource', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'x-correlation-id': 'browser-create' },
    body: JSON.stringify({ key: settings.key, objectTypeProperty: ${JSON.stringify(draftExample.objectTypeProperty)} }),
  }));
  const bytes = Uint8Array.from(atob(settings.gif), (c) => c.charCodeAt(0));
  const started = await step('start', () => fetch(settings.api + '/demo/resource/images/uploads?sku=' + settings.sku + '&filename=pixel.gif&contentType=image/gif&size=' + bytes.length, { method: 'POST', headers: auth }));
  if (started.status !== 201) return;
  // The browser sets content-length itself; every other signed header is sent as the ticket lists it.
  const { 'content-length': _, ...headers } = started.body.headers;
  await step('put', () => fetch(started.body.url, { method: started.body.method, headers, body: bytes }));
  await step('complete', () => fetch(settings.api + '/demo/resource/images/uploads/' + started.body.uploadId, { method: 'POST', headers: auth }));
  document.getElementById('done').textContent = 'done';
})();
`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>CORS client</title></head><body><pre id="steps"></pre><p id="done"></p><script>${script}</script></body></html>`;
}

let server: Server;
let served = '';
beforeAll(async () => {
  server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(served));
  await new Promise<void>((done) => server.listen(Number(new URL(browserOrigin).port), '127.0.0.1', done));
});
afterAll(() => new Promise((done) => server.close(done)));

describe('a browser app on another origin', () => {
  it('creates a resource and completes a two-step image upload (headless Chromium)', { timeout: 120_000 }, async () => {
    const key = uniqueKey('cors');
    const sku = uniqueKey('sku');
    served = page({ api: baseUrl, token: await tokenFor('manage_test:demo manage_products:demo'), key, sku, gif: GIF_1X1.toString('base64') });

    const dom = await renderedDom(`${browserOrigin}/`);
    const steps = JSON.parse(/<pre id="steps">([^<]*)<\/pre>/.exec(dom)?.[1]?.replaceAll('&quot;', '"').replaceAll('&amp;', '&') ?? '[]');
    expect(steps.map(({ name, status, error }: { name: string; status?: number; error?: string }) => ({ name, status, error }))).toEqual([
      { name: 'create', status: 201, error: undefined },
      { name: 'start', status: 201, error: undefined },
      { name: 'put', status: 200, error: undefined },
      { name: 'complete', status: 200, error: undefined },
    ]);
    // Exposed to the page: the correlation id header, and the answers' bodies.
    expect(steps[0].correlationId).toBe('browser-create');
    expect(steps[0].body).toMatchObject({ key, version: 1 });
    expect(steps[3].body).toMatchObject({ sku });
    expect(steps[3].body.stagedImages).toHaveLength(1);
    expect(dom).toContain('<p id="done">done</p>');
  });
});

describe('preflight and headers (what the browser relies on)', () => {
  const preflight = (path: string, origin: string) =>
    fetch(`${baseUrl}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });

  it('answers a preflight of an allowed origin with 204 and the allowed methods and headers, before any token check', async () => {
    const answer = await preflight('/demo/resource', browserOrigin);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(browserOrigin);
    expect(answer.headers.get('access-control-allow-methods')).toContain('POST');
    expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(answer.headers.get('access-control-max-age')).toBe('3600');
  });

  it('allows no other origin', async () => {
    const answer = await preflight('/demo/resource', 'https://evil.example');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const read = await call('GET', `/demo/resource/key=${uniqueKey()}`, { token: await tokenFor(), headers: { origin: 'https://evil.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('adds the allow-origin and expose headers to answers of an allowed origin, errors included', async () => {
    const missing = await call('GET', `/demo/resource/key=${uniqueKey()}`, { token: await tokenFor(), headers: { origin: browserOrigin } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(browserOrigin);
    expect(missing.headers.get('access-control-expose-headers')).toContain('x-correlation-id');
    const unauthorized = await call('GET', '/demo/resource', { headers: { origin: browserOrigin } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(browserOrigin);
  });
});
