import type middy from '@middy/core';
import { abbreviate } from '../../domain/abbreviate';
import { invalidJsonInput } from '../errors';
import type { ApiEvent } from '../api-types';

/** Deepest nesting of arrays and objects a JSON body may have. */
export const JSON_DEPTH_LIMIT = 100;

/**
 * Refuses parsed JSON bodies the service can neither handle nor store (400 InvalidJsonInput):
 * - nested deeper than `maxDepth`: validation, error messages and rendering all recurse, and a
 *   256 KiB body can nest 100,000 levels deep; such a body exhausted the stack and answered 500;
 * - holding a lone surrogate (`"\ud800"` is valid JSON) in a string or a property name: it has no
 *   UTF-8 form, which DynamoDB requires of strings, so the write failed with 500 (DynamoDB Local
 *   stored it).
 * Runs after the JSON parser, so a wrong content type or a malformed body is still answered as such.
 */
export function jsonBodyChecks(maxDepth = JSON_DEPTH_LIMIT): middy.MiddlewareObj<ApiEvent> {
  return {
    before: ({ event }) => {
      const problem = jsonBodyProblem(event.body, maxDepth);
      if (problem !== undefined) throw invalidJsonInput(problem);
    },
  };
}

/**
 * What is wrong with a parsed JSON value, or undefined. One iterative walk; only arrays, objects and
 * strings that fail are queued, with their path as validation names fields (`a.b[0].c`).
 */
export function jsonBodyProblem(value: unknown, maxDepth = JSON_DEPTH_LIMIT): string | undefined {
  const pending: [node: unknown, depth: number, path: string][] = [[value, 1, '']];
  while (pending.length > 0) {
    const [node, depth, path] = pending.pop()!;
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return loneSurrogateIn(node, path);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return `The body nests deeper than ${maxDepth} levels.`;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) {
        if (isQueued(node[index])) pending.push([node[index], depth + 1, `${path}[${index}]`]);
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      if (!key.isWellFormed()) return loneSurrogateIn(key, path, 'in a property name ');
      const child = (node as Record<string, unknown>)[key];
      if (isQueued(child)) pending.push([child, depth + 1, path ? `${path}.${key}` : key]);
    }
  }
  return undefined;
}

/** Arrays and objects are walked into; a string only when it is to be refused. */
const isQueued = (child: unknown) => (typeof child === 'string' ? !child.isWellFormed() : child !== null && typeof child === 'object');

function loneSurrogateIn(text: string, path: string, what = ''): string {
  // toWellFormed() replaces each lone surrogate by U+FFFD, one unit for one: the first difference is it.
  const replaced = text.toWellFormed();
  let index = 0;
  while (text[index] === replaced[index]) index += 1;
  const place = path ? abbreviate(path, 100) : 'the top level';
  return `The body contains a lone surrogate (\\u${text.charCodeAt(index).toString(16)}) ${what}at ${place}: not valid UTF-8 text.`;
}
