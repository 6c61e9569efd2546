import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { methodsByPathOf } from '../shared/http/api-paths';

/** The repository root: function entries, the lock file and esbuild's working directory. */
export const projectRoot = join(import.meta.dirname, '..');

/**
 * How every Lambda function is bundled, in one place: the CDK construct builds with these
 * settings, and the bundle benchmark (bench/bundles.ts) builds with `lambdaEsbuildOptions`, the
 * same settings as esbuild options. Minified ESM for Node.js 22, tree-shaken, with the AWS SDK
 * inside (no lookups in the runtime's copy at cold start), no source maps.
 */
export const lambdaBundling = {
  target: 'node22',
  format: 'esm' as const,
  minify: true,
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require(); give ESM bundles one.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  // Parts of the AWS SDK no function runs in Lambda, replaced by small stand-ins (each file says why).
  alias: {
    '@aws-sdk/credential-provider-node': './infra/sdk-stand-ins/credential-provider-node.ts',
    '@smithy/core/event-streams': './infra/sdk-stand-ins/event-streams.ts',
    'mnemonist/lru-cache': './infra/sdk-stand-ins/lru-cache.ts',
  } as Record<string, string>,
  /** The API's paths and methods from openapi.json, for the 405s of shared/http/api-paths.ts: a bundle carries no list of endpoints. */
  define: {
    'process.env.API_PATHS': JSON.stringify(JSON.stringify(methodsByPathOf(JSON.parse(readFileSync(join(projectRoot, 'openapi.json'), 'utf8'))))),
  },
  /** Settings the CDK construct has no property for, passed to esbuild as they are (see lambdaEsbuildArgs). */
  extra: {
    // License comments of the bundled packages stay in their packages, not in every function.
    legalComments: 'none',
  } satisfies Partial<BuildOptions>,
};

/** The same settings as command-line arguments, for NodejsFunction's `esbuildArgs`. */
export const lambdaEsbuildArgs: Record<string, string | boolean> = {
  ...Object.fromEntries(Object.entries(lambdaBundling.alias).map(([from, to]) => [`--alias:${from}`, to])),
  ...Object.fromEntries(Object.entries(lambdaBundling.extra).map(([name, value]) => [`--${kebabCase(name)}`, value])),
};

/**
 * The esbuild options NodejsFunction ends up with for one function (its bundling command:
 * `--bundle --platform=node --target --format --outfile --minify --banner --main-fields`, the
 * esbuildArgs above, no externals because the AWS SDK is bundled, no source map).
 */
export function lambdaEsbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    absWorkingDir: projectRoot,
    target: lambdaBundling.target,
    format: lambdaBundling.format,
    minify: lambdaBundling.minify,
    mainFields: lambdaBundling.mainFields,
    banner: { js: lambdaBundling.banner },
    alias: lambdaBundling.alias,
    define: lambdaBundling.define,
    ...lambdaBundling.extra,
  };
}

export const functionEntry = (handler: string) => join(projectRoot, 'functions', handler, 'handler.ts');

function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
