/**
 * Matches a request path against a route table with API Gateway's rules: a route matches when
 * every segment matches (a `{param}` takes one whole, non-empty segment), and the most specific
 * match wins — compared segment by segment from the left, a literal beats a parameter.
 */

export interface MatchableRoute {
  method: string;
  path: string;
}

interface CompiledRoute<R extends MatchableRoute> {
  route: R;
  segments: { literal?: string; parameter?: string }[];
}

export interface RouteMatch<R extends MatchableRoute> {
  route: R;
  pathParameters: Record<string, string>;
}

export type RouteMatcher<R extends MatchableRoute> = (method: string, path: string) => RouteMatch<R> | { allowedMethods: string[] };

/** A matcher over these routes: the route serving `method path`, or which methods the path allows when none does. */
export function routeMatcher<R extends MatchableRoute>(routes: readonly R[]): RouteMatcher<R> {
  const compiled: CompiledRoute<R>[] = routes.map((route) => ({
    route,
    segments: splitPath(route.path).map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment)?.[1];
      return parameter ? { parameter } : { literal: segment };
    }),
  }));
  return (method, path) => {
    const segments = splitPath(path);
    const candidates = compiled
      .map((candidate) => ({ candidate, pathParameters: bind(candidate, segments) }))
      .filter((match): match is { candidate: CompiledRoute<R>; pathParameters: Record<string, string> } => match.pathParameters !== undefined);

    const forMethod = candidates.filter(({ candidate }) => candidate.route.method === method);
    const best = forMethod.sort((a, b) => specificity(b.candidate) - specificity(a.candidate))[0];
    if (best) return { route: best.candidate.route, pathParameters: best.pathParameters };
    return { allowedMethods: [...new Set(candidates.map(({ candidate }) => candidate.route.method))] };
  };
}

function splitPath(path: string): string[] {
  return path.split('/').slice(1);
}

function bind(candidate: CompiledRoute<MatchableRoute>, segments: string[]): Record<string, string> | undefined {
  if (candidate.segments.length !== segments.length) return undefined;
  const parameters: Record<string, string> = {};
  for (const [index, expected] of candidate.segments.entries()) {
    const actual = segments[index] ?? '';
    if (expected.literal !== undefined) {
      if (expected.literal !== actual) return undefined;
    } else {
      if (actual === '') return undefined;
      parameters[expected.parameter!] = decodeSegment(actual);
    }
  }
  return parameters;
}

/** Literal segments weigh more the further left they stand, as in API Gateway's ordering. */
function specificity(candidate: CompiledRoute<MatchableRoute>): number {
  return candidate.segments.reduce(
    (score, segment, index) => score + (segment.literal !== undefined ? 2 ** (32 - index) : 0),
    0,
  );
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // API Gateway passes undecodable segments through as they are.
  }
}
