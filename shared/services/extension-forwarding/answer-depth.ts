import { ExtensionBadResponseError } from './errors';

/**
 * The deepest nesting of arrays and objects an extension's answer may have — the same bound the
 * API puts on request bodies. Rendering and logging recurse: an answer of 100,000 nested arrays
 * (a few hundred KB) would overflow the stack there (RangeError, a 500). Relaying it is the
 * extension's fault, so it is refused as a bad answer (502 ExtensionBadResponse) before anything
 * recurses. Measured iteratively.
 */
export const MAX_ANSWER_DEPTH = 100;

export function checkAnswerDepth(value: unknown, limit = MAX_ANSWER_DEPTH): void {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) throw new ExtensionBadResponseError(`The extension's answer nests deeper than ${limit} levels.`);
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
}
