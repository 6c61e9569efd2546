import { routeKey, type EndpointDeclaration, type RouteDeclaration } from './declaration';

/** One route of the API and the endpoint that serves it. */
export interface ServedRoute {
  method: RouteDeclaration['method'];
  path: string;
  /** The API Gateway route key, e.g. `GET /{projectKey}/resource/{id}`. */
  key: string;
  route: RouteDeclaration;
  endpoint: EndpointDeclaration;
}

/** The route table of these endpoints, in their order; a route key served twice is refused. */
export function routeTableOf(endpoints: readonly EndpointDeclaration[]): ServedRoute[] {
  const table = endpoints.flatMap((endpoint) =>
    endpoint.routes.map((route) => ({ method: route.method, path: route.path, key: routeKey(route), route, endpoint })),
  );
  const keys = new Set<string>();
  for (const { key, endpoint } of table) {
    if (keys.has(key)) throw new Error(`The route ${key} is declared twice (again by ${endpoint.name}).`);
    keys.add(key);
  }
  return table;
}
