import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The API reference page: Swagger UI rendering `/openapi.json`, served by the service itself
 * (no CDN). Its two files come from the swagger-ui-dist package: in Lambda as copies placed next
 * to the bundle at bundling time (infra/constructs/endpoint-function.ts), elsewhere from node_modules.
 */
export const API_DOCS_ASSETS = { 'swagger-ui-bundle.js': 'text/javascript; charset=utf-8', 'swagger-ui.css': 'text/css; charset=utf-8' } as const;
export type ApiDocsAsset = keyof typeof API_DOCS_ASSETS;

export const isApiDocsAsset = (name: string): name is ApiDocsAsset => Object.hasOwn(API_DOCS_ASSETS, name);

/** Paths are relative, so the page works under any base path: `/docs` loads `docs/<asset>` and `openapi.json`. */
const INIT_SCRIPT = [
  "window.addEventListener('load', function () {",
  "  window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });",
  '});',
].join('\n');

/**
 * Scripts only from this origin plus the one inline script above (by its hash), styles only from
 * this origin (Swagger UI sets element styles through the DOM, which CSP allows), images from
 * this origin and data: URLs (the style sheet embeds its icons so), requests only to this origin
 * (the document, the token endpoint, "Try it out"), no plugins, forms or framing.
 */
export const API_DOCS_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(INIT_SCRIPT).digest('base64')}'`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const API_DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Generic Resource Service — API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script>${INIT_SCRIPT}</script>
</body>
</html>
`;

/** File contents by path, read once per cold start. */
const read = new Map<string, string>();

/** The file's text: next to the running bundle first (Lambda), else from swagger-ui-dist. */
export function readApiDocsAsset(name: ApiDocsAsset, besideBundle = dirname(fileURLToPath(import.meta.url))): string {
  const beside = join(besideBundle, name);
  const file = existsSync(beside) ? beside : swaggerUiDist().map((folder) => join(folder, name)).find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`The API reference's ${name} is neither next to the bundle nor in node_modules/swagger-ui-dist.`);
  if (!read.has(file)) read.set(file, readFileSync(file, 'utf8'));
  return read.get(file)!;
}

/**
 * The OpenAPI document as `npm run openapi` commits it (openapi.json), compacted: next to the running
 * bundle first (Lambda; get-openapi declares it beside its bundle), else at the repository root.
 * Read, not imported, so the function bundles neither the document nor what builds it.
 */
export function readOpenApiDocument(besideBundle = dirname(fileURLToPath(import.meta.url))): string {
  const file = [join(besideBundle, 'openapi.json'), fileURLToPath(new URL('../../openapi.json', import.meta.url))].find((candidate) => existsSync(candidate));
  if (!file) throw new Error('openapi.json is neither next to the bundle nor at the repository root.');
  if (!read.has(file)) read.set(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
  return read.get(file)!;
}

/** The swagger-ui-dist folder, when the package can be resolved (not in a Lambda bundle). */
export function swaggerUiDist(): string[] {
  try {
    return [dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))];
  } catch {
    return [];
  }
}
