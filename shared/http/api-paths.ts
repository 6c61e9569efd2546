import { readFileSync } from 'node:fs';
import { routeMatcher } from './route-matcher';

/**
 * The API's paths and the methods each serves, as openapi.json lists them. A Lambda bundle carries
 * them as `process.env.API_PATHS`, which the bundler defines from openapi.json (infra/bundling.ts),
 * so no function bundles the list of endpoints nor the document; unbundled (npm start, tests) they
 * are read from the file. Nothing else to regenerate when an endpoint is added.
 */
export const methodsByPathOf = (document: { paths: Record<string, object> }): Record<string, string[]> =>
  Object.fromEntries(Object.entries(document.paths).map(([path, operations]) => [path, Object.keys(operations).map((method) => method.toUpperCase())]));

let known: { methodsByPath: Record<string, string[]>; pathOf: ReturnType<typeof routeMatcher> } | undefined;

function apiPaths() {
  if (!known) {
    const methodsByPath: Record<string, string[]> = process.env.API_PATHS
      ? JSON.parse(process.env.API_PATHS)
      : methodsByPathOf(JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')));
    known = { methodsByPath, pathOf: routeMatcher(Object.keys(methodsByPath).map((path) => ({ method: '*', path }))) };
  }
  return known;
}

/**
 * The most specific path of the API a request path fits, whatever the method, and the methods it
 * serves — what a 405's `Allow` names; undefined when no path fits (404). `/demo/resource/images`
 * is the path `/{projectKey}/resource/images` (POST), not `/{projectKey}/resource/{id}`.
 */
export function apiPathOf(rawPath: string): { path: string; methods: string[] } | undefined {
  const { methodsByPath, pathOf } = apiPaths();
  const match = pathOf('*', rawPath);
  return 'route' in match ? { path: match.route.path, methods: methodsByPath[match.route.path]! } : undefined;
}
