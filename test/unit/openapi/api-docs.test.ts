import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { API_DOCS_ASSETS, API_DOCS_CSP, API_DOCS_HTML, readApiDocsAsset, readOpenApiDocument, swaggerUiDist } from '../../../shared/http/api-docs';
import { render } from '../../../shared/http/render';
import { getApiDocs } from '../../../functions/get-api-docs/endpoint';
import { getOpenApi } from '../../../functions/get-openapi/endpoint';
import { copyBesideBundle } from '../../../infra/files-beside-bundle';

describe('raw bodies in the endpoint wrapper', () => {
  it('sends a raw body as it is, with the handler\'s content type', () => {
    const result = render({ statusCode: 200, rawBody: '<p>hi</p>', headers: { 'content-type': 'text/html; charset=utf-8' } }, 'GET');
    expect(result).toEqual({ statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<p>hi</p>' });
  });

  it('keeps JSON the default, and HEAD without a body', () => {
    expect(render({ statusCode: 200, body: { a: 1 } }, 'GET')).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"a":1}',
    });
    expect(render({ statusCode: 200, rawBody: 'x', headers: { 'content-type': 'text/css' } }, 'HEAD').body).toBe('');
  });
});

describe('the API reference page', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('loads only its own files and allows its one inline script by hash', () => {
    expect(API_DOCS_HTML).toContain('<link rel="stylesheet" href="docs/swagger-ui.css">');
    expect(API_DOCS_HTML).toContain('<script src="docs/swagger-ui-bundle.js"></script>');
    expect(API_DOCS_HTML).not.toMatch(/https?:\/\//);
    const inline = /<script>([\s\S]*?)<\/script>/.exec(API_DOCS_HTML)![1]!;
    expect(API_DOCS_CSP).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect(API_DOCS_CSP).toContain("default-src 'none'");
    expect(API_DOCS_CSP).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('reads its files next to the bundle first, else from swagger-ui-dist', async () => {
    const beside = await mkdtemp(join(tmpdir(), 'api-docs-'));
    dirs.push(beside);
    await writeFile(join(beside, 'swagger-ui.css'), 'body{}');
    expect(readApiDocsAsset('swagger-ui.css', beside)).toBe('body{}');
    const [dist] = swaggerUiDist();
    expect(readApiDocsAsset('swagger-ui-bundle.js', beside)).toBe(readFileSync(join(dist!, 'swagger-ui-bundle.js'), 'utf8'));
  });

  it('serves the committed OpenAPI document from beside the Lambda bundle, else from the repository root', async () => {
    expect(copyBesideBundle(getOpenApi.filesBesideBundle ?? []).afterBundling('/in', '/out')).toEqual(['cp "/in/openapi.json" "/out/openapi.json"']);
    const committed = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
    expect(JSON.parse(readOpenApiDocument())).toEqual(committed);
    const beside = await mkdtemp(join(tmpdir(), 'openapi-'));
    dirs.push(beside);
    await writeFile(join(beside, 'openapi.json'), '{ "openapi": "3.1.0" }');
    expect(readOpenApiDocument(beside)).toBe('{"openapi":"3.1.0"}');
  });

  it('has its files copied next to the Lambda bundle', () => {
    const commands = copyBesideBundle(getApiDocs.filesBesideBundle ?? []).afterBundling('/in', '/out');
    expect(commands).toEqual(Object.keys(API_DOCS_ASSETS).map((name) => `cp "/in/node_modules/swagger-ui-dist/${name}" "/out/${name}"`));
  });
});
