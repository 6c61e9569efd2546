import { describe, expect, it } from 'vitest';
import { endpoints, fallback } from '../../../functions/endpoints.js';
import { routeKey } from '../../../shared/http/declaration.js';
import { routeMatcher, type RouteMatch } from '../../../shared/http/route-matcher.js';
import { routeTableOf } from '../../../shared/http/route-table.js';

/** The declared routes, each with the name of the endpoint serving it. */
const routes = routeTableOf(endpoints).map(({ route, endpoint }) => ({ ...route, handler: endpoint.name }));
const matchRoute = routeMatcher(routes);

/** The match for a request; fails the test when the matcher answers allowedMethods instead. */
function matched(method: string, path: string): RouteMatch<(typeof routes)[number]> {
  const result = matchRoute(method, path);
  if (!('route' in result)) throw new Error(`${method} ${path} matched no route (allowed: ${result.allowedMethods.join(', ')})`);
  return result;
}

function allowed(method: string, path: string): string[] {
  const result = matchRoute(method, path);
  if ('route' in result) throw new Error(`${method} ${path} unexpectedly matched ${routeKey(result.route)}`);
  return result.allowedMethods;
}

const ID = '6f2b1d8e-3c1a-4b7e-9f00-0a1b2c3d4e5f';

describe('the route table of the endpoint declarations', () => {
  it('has one entry per method and path', () => {
    const keys = routes.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('writes route keys as API Gateway does', () => {
    expect(routeKey({ method: 'GET', path: '/{projectKey}/resource/{id}' })).toBe('GET /{projectKey}/resource/{id}');
  });

  it('declares the OAuth endpoints public and the resource endpoints project-scoped', () => {
    for (const route of routes) {
      if (route.path.startsWith('/oauth/')) expect(route.access, routeKey(route)).toEqual({ kind: 'public' });
      if (route.path.startsWith('/{projectKey}/resource')) expect(route.access.kind, routeKey(route)).toBe('project');
    }
  });

  it('lets view_test read a resource but only manage_test change one', () => {
    expect(matched('GET', `/demo/resource/${ID}`).route.access).toEqual({ kind: 'project', anyOf: ['manage_test', 'view_test'] });
    for (const [method, path] of [
      ['POST', '/demo/resource'],
      ['PUT', '/demo/resource'],
      ['PATCH', '/demo/resource'],
      ['POST', `/demo/resource/${ID}`],
      ['DELETE', `/demo/resource/${ID}`],
    ] as const) {
      expect(matched(method, path).route.access, `${method} ${path}`).toEqual({ kind: 'project', anyOf: ['manage_test'] });
    }
  });

  it('gives the fallback API Gateway\'s $default route key, outside the table', () => {
    expect(fallback.routes.map(routeKey)).toEqual(['$default']);
    expect(routes.some((route) => route.handler === fallback.name)).toBe(false);
  });

  it('refuses a table that serves a route key twice', () => {
    expect(() => routeTableOf([...endpoints, endpoints[0]!])).toThrow(/declared twice/);
  });
});

describe('matchRoute: the routes of the API', () => {
  it.each([
    ['POST', '/oauth/token', 'issue-token'],
    ['GET', '/oauth/jwks', 'get-jwks'],
    ['POST', '/demo/resource', 'create-resource'],
    ['PATCH', '/demo/resource', 'overwrite-resource'],
    ['PUT', '/demo/resource', 'put-resource'],
    ['GET', `/demo/resource/${ID}`, 'get-resource'],
    ['POST', `/demo/resource/${ID}`, 'update-resource'],
    ['DELETE', `/demo/resource/${ID}`, 'delete-resource'],
  ])('%s %s goes to %s', (method, path, handler) => {
    expect(matched(method, path).route.handler).toBe(handler);
  });

  it('binds projectKey and id', () => {
    expect(matched('GET', `/demo/resource/${ID}`)).toMatchObject({
      route: { path: '/{projectKey}/resource/{id}' },
      pathParameters: { projectKey: 'demo', id: ID },
    });
  });

  it('binds no parameters on a literal route', () => {
    expect(matched('POST', '/oauth/token').pathParameters).toEqual({});
  });

  it('routes a key= segment to the {id} route, since API Gateway cannot match a partial segment', () => {
    expect(matched('GET', '/demo/resource/key=abc')).toMatchObject({
      route: { method: 'GET', path: '/{projectKey}/resource/{id}', handler: 'get-resource' },
      pathParameters: { projectKey: 'demo', id: 'key=abc' },
    });
    expect(matched('DELETE', '/demo/resource/key=abc').route.handler).toBe('delete-resource');
  });
});

describe('matchRoute: precedence', () => {
  it('lets a literal segment beat a parameter: POST /oauth/token is the token endpoint', () => {
    expect(matched('POST', '/oauth/token').route.handler).toBe('issue-token');
  });

  it('falls back to a parameterised route when the literal route lacks the method', () => {
    // A project called "oauth" is still a project: /oauth/resource is its collection.
    expect(matched('POST', '/oauth/resource')).toMatchObject({
      route: { handler: 'create-resource' },
      pathParameters: { projectKey: 'oauth' },
    });
  });

  const hasRoute = (key: string) => routes.some((route) => routeKey(route) === key);
  const literalItemRoutes = routes.filter((route) => /^\/\{projectKey\}\/resource\/[A-Za-z-]+$/.test(route.path));

  it.runIf(literalItemRoutes.length > 0)('lets a literal third segment beat {id} for its method', () => {
    for (const route of literalItemRoutes) {
      const path = route.path.replace('{projectKey}', 'demo');
      expect(matched(route.method, path).route, routeKey(route)).toBe(route);
      expect(matched(route.method, path).pathParameters).toEqual({ projectKey: 'demo' });
    }
  });

  it.runIf(hasRoute('GET /{projectKey}/resource/searchApiPattern') && !hasRoute('DELETE /{projectKey}/resource/searchApiPattern'))(
    'sends other methods on a literal item path to the {id} route',
    () => {
      expect(matched('DELETE', '/demo/resource/searchApiPattern')).toMatchObject({
        route: { handler: 'delete-resource' },
        pathParameters: { projectKey: 'demo', id: 'searchApiPattern' },
      });
    },
  );

  it('does not let a literal route of another method take the request', () => {
    const methods = allowed('GET', '/oauth/token');
    expect(methods).toContain('POST');
    expect(methods).not.toContain('GET');
  });
});

describe('matchRoute: no route for the method', () => {
  it('answers the allowed methods of a known path', () => {
    expect(allowed('DELETE', '/oauth/token')).toEqual(['POST']);
    expect(allowed('POST', '/oauth/jwks')).toEqual(['GET']);
    expect(allowed('HEAD', '/oauth/jwks')).toEqual(['GET']);
  });

  it('answers every method the collection and item paths allow, never the one asked', () => {
    // The table may grow (query, HEAD, ...): assert the methods these paths must allow, not an exact list.
    const collection = allowed('DELETE', '/demo/resource');
    expect(collection).toEqual(expect.arrayContaining(['POST', 'PATCH', 'PUT']));
    expect(collection).not.toContain('DELETE');
    const item = allowed('PUT', `/demo/resource/${ID}`);
    expect(item).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE']));
    expect(item).not.toContain('PUT');
  });

  it('lists each allowed method once', () => {
    const methods = allowed('PUT', `/demo/resource/${ID}`);
    expect(new Set(methods).size).toBe(methods.length);
  });

  it('lists exactly the methods of the table entries whose path matches', () => {
    const expected = new Set(routes.filter((route) => route.path === '/{projectKey}/resource').map((route) => route.method));
    expect(new Set(allowed('DELETE', '/demo/resource'))).toEqual(expected);
  });

  it('compares methods case-sensitively', () => {
    expect(allowed('get', `/demo/resource/${ID}`)).toContain('GET');
  });

  it.each(['/', '/demo', '/demo/other', '/demo/resource/a/b', '/oauth/token/extra', '/oauth/introspectx'])('answers no allowed methods for the unknown path %s', (path) => {
    expect(allowed('GET', path)).toEqual([]);
  });
});

describe('matchRoute: segments', () => {
  it('does not let an empty segment fill a parameter', () => {
    expect(allowed('GET', '/demo/resource/')).toEqual([]);
    expect(allowed('POST', '//resource')).toEqual([]);
    expect(allowed('GET', '//resource/x')).toEqual([]);
  });

  it('does not ignore a trailing slash', () => {
    expect(allowed('POST', '/demo/resource/')).toEqual([]);
    expect(allowed('POST', '/oauth/token/')).toEqual([]);
  });

  it('does not match literal segments case-insensitively', () => {
    expect(allowed('POST', '/demo/Resource')).toEqual([]);
  });

  it('percent-decodes path parameters', () => {
    expect(matched('GET', '/demo/resource/key%3Dmy-key').pathParameters).toEqual({ projectKey: 'demo', id: 'key=my-key' });
    expect(matched('GET', '/my%20project/resource/%C3%BC').pathParameters).toEqual({ projectKey: 'my project', id: 'ü' });
  });

  it('decodes an encoded slash inside a parameter without splitting the path on it', () => {
    expect(matched('GET', '/demo/resource/a%2Fb').pathParameters).toEqual({ projectKey: 'demo', id: 'a/b' });
  });

  it('passes an undecodable parameter through as it is', () => {
    expect(matched('GET', '/demo/resource/%E0%A4%A').pathParameters.id).toBe('%E0%A4%A');
    expect(matched('GET', '/demo/resource/%ED%A0%80').pathParameters.id).toBe('%ED%A0%80'); // a lone surrogate's bytes: not decoded to one
  });

  it('does not read + as a space in a path', () => {
    expect(matched('GET', '/demo/resource/a+b').pathParameters.id).toBe('a+b');
  });
});
