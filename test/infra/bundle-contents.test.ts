import { relative } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { functions } from '../../functions/endpoints';
import { functionEntry, lambdaEsbuildOptions, projectRoot } from '../../infra/bundling';

/** The repository files a function's bundle holds (built as the stack builds it, not written). */
async function sourcesOf(name: string): Promise<string[]> {
  const result = await build({ ...lambdaEsbuildOptions(functionEntry(name), `${name}.mjs`), write: false, metafile: true, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs).map((input) => relative(projectRoot, input)).filter((file) => !file.includes('node_modules'));
}

describe('what each function bundles', () => {
  const bundled = new Map<string, string[]>();
  beforeAll(async () => {
    for (const { name } of functions) bundled.set(name, await sourcesOf(name));
  });

  it('its own declaration and handler, never the list of endpoints nor another endpoint', () => {
    for (const [name, sources] of bundled) {
      const fromFunctions = sources.filter((file) => file.startsWith('functions/'));
      expect(fromFunctions.length, name).toBeGreaterThan(0);
      expect(fromFunctions.every((file) => file.startsWith(`functions/${name}/`)), `${name}: ${fromFunctions.join(', ')}`).toBe(true);
    }
  });

  it('neither the OpenAPI builder nor the error catalogue', () => {
    for (const [name, sources] of bundled) {
      expect(sources, name).not.toContain('shared/http/openapi.ts');
      expect(sources, name).not.toContain('shared/http/contract/error-responses.ts');
    }
  });
});
