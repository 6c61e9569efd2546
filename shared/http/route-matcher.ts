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
  /** Literal segments weigh more the further left they stand, as in API Gateway's ordering. */
  specificity: number;
}

export interface RouteMatch<R extends MatchableRoute> {
  route: R;
  pathParameters: Record<string, string>;
}

export type RouteMatcher<R extends MatchableRoute> = (method: string, path: string) => RouteMatch<R> | { allowedMethods: string[] };

/** A matcher over these routes: the route serving `method path`, or which methods the path allows when none does. */
export function routeMatcher<R extends MatchableRoute>(routes: readonly R[]): RouteMatcher<R> {
  const compiled = routes.map((route): CompiledRoute<R> => {
    const segments = splitPath(route.path).map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment)?.[1];
      return parameter ? { parameter } : { literal: segment };
    });
    const specificity = segments.reduce((score, segment, index) => score + (segment.literal !== undefined ? 2 ** (32 - index) : 0), 0);
    return { route, segments, specificity };
  });
  return (method, path) => {
    const segments = splitPath(path);
    // Performance: the gateway matches every request; candidates are tested on their literals
    // first, and only the winner's parameters are decoded.
    const candidates = compiled.filter((candidate) => fits(candidate, segments));
    let best: CompiledRoute<R> | undefined;
    for (const candidate of candidates) {
      if (candidate.route.method === method && (!best || candidate.specificity > best.specificity)) best = candidate;
    }
    if (best) return { route: best.route, pathParameters: bind(best, segments) };
    return { allowedMethods: [...new Set(candidates.map((candidate) => candidate.route.method))] };
  };
}

function splitPath(path: string): string[] {
  return path.split('/').slice(1);
}

/** Every segment matches: a literal exactly, a parameter any non-empty segment. */
function fits(candidate: CompiledRoute<MatchableRoute>, segments: string[]): boolean {
  if (candidate.segments.length !== segments.length) return false;
  return candidate.segments.every((expected, index) =>
    expected.literal !== undefined ? expected.literal === segments[index] : segments[index] !== '',
  );
}

function bind(candidate: CompiledRoute<MatchableRoute>, segments: string[]): Record<string, string> {
  const parameters: Record<string, string> = {};
  candidate.segments.forEach((expected, index) => {
    if (expected.parameter !== undefined) parameters[expected.parameter] = decodeSegment(segments[index]!);
  });
  return parameters;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // API Gateway passes undecodable segments through as they are.
  }
}
