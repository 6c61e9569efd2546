import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../functions/endpoints';
import type { RouteDeclaration as Route } from '../../shared/http/declaration';
import { baseUrl } from './api-client';

const routes: readonly Route[] = endpoints.flatMap((endpoint) => endpoint.routes);

/**
 * The API reference page in a real browser: Debian's headless Chromium loads `/docs` from the
 * local stack (Swagger UI and the document come from the service itself; the browser has no
 * internet), runs its scripts under the page's Content-Security-Policy, and dumps the DOM.
 */
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

async function renderedDom(url: string): Promise<string> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}; this test renders the API reference in it. Install it with ` +
        '`apt-get install -y chromium` (.ci/run does), or set CHROMIUM_BIN to a Chromium binary.',
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'grs-chromium-'));
  try {
    const { stdout } = await promisify(execFile)(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        // Let the page's timers and fetches settle before the DOM is dumped.
        '--virtual-time-budget=10000',
        '--dump-dom',
        url,
      ],
      { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

const unescapeHtml = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

describe('the API reference page in headless Chromium', () => {
  it('renders every endpoint of the route table with its method and summary', { timeout: 120_000 }, async () => {
    const dom = await renderedDom(`${baseUrl}/docs`);

    // Each operation: a block classed by its method, holding its path (data-path) and its summary.
    const operations = [...dom.matchAll(/class="opblock opblock-(\w+)[\s\S]*?data-path="([^"]*)"[\s\S]*?class="opblock-summary-description">([^<]*)</g)].map(
      ([, method, path, summary]) => ({ method: method!.toUpperCase(), path: unescapeHtml(path!), summary: unescapeHtml(summary!) }),
    );
    expect(operations.length, 'Swagger UI rendered no operations: did the page load its script and /openapi.json?').toBeGreaterThan(0);
    expect(operations).toContainEqual({ method: 'GET', path: '/{projectKey}/resource/{id}', summary: expect.stringContaining('Read a resource by id') });
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      (routes as readonly Route[]).map((route) => `${route.method} ${route.path}`).sort(),
    );
    for (const route of routes as readonly Route[]) {
      expect(operations.find(({ method, path }) => method === route.method && path === route.path)?.summary).toBe(route.summary);
    }
  });
});
