import routeKeys from './contract/route-keys.json' with { type: 'json' };
import { routeMatcher } from './route-matcher';

/**
 * The API's paths and the methods each serves, from the route table `npm run openapi` writes (a
 * test keeps it fresh): methods and paths only, so a function that reads it carries no other
 * endpoint.
 */
const methodsByPath = new Map<string, string[]>();
for (const key of routeKeys) {
  const [method, path] = key.split(' ') as [string, string];
  methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), method]);
}
const pathOf = routeMatcher([...methodsByPath.keys()].map((path) => ({ method: '*', path })));

/**
 * The most specific path of the API a request path fits, whatever the method, and the methods it
 * serves — what a 405's `Allow` names; undefined when no path fits (404). `/demo/resource/images`
 * is the path `/{projectKey}/resource/images` (POST), not `/{projectKey}/resource/{id}`.
 */
export function apiPathOf(rawPath: string): { path: string; methods: string[] } | undefined {
  const match = pathOf('*', rawPath);
  return 'route' in match ? { path: match.route.path, methods: methodsByPath.get(match.route.path)! } : undefined;
}
