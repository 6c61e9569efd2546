import type middy from '@middy/core';
import { invalidJsonInput } from '../errors';
import type { ApiEvent } from '../api-types';

/** Deepest nesting of arrays and objects a JSON body may have. */
export const JSON_DEPTH_LIMIT = 100;

/**
 * Refuses parsed JSON bodies nested deeper than `maxDepth` (400 InvalidJsonInput). Validation,
 * error messages and rendering all recurse, and a 256 KiB body can nest 100,000 levels deep:
 * without this limit such a body exhausts the stack and answers 500. Runs after the JSON parser,
 * so a wrong content type or a malformed body is still answered as such; measures iteratively.
 */
export function jsonDepthLimit(maxDepth = JSON_DEPTH_LIMIT): middy.MiddlewareObj<ApiEvent> {
  return {
    before: ({ event }) => {
      if (nestsDeeperThan(event.body, maxDepth)) throw invalidJsonInput(`The body nests deeper than ${maxDepth} levels.`);
    },
  };
}

function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}
