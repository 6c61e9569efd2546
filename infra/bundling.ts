import { join } from 'node:path';

/** The repository root: function entries, the lock file and esbuild's working directory. */
export const projectRoot = join(import.meta.dirname, '..');

/**
 * How every Lambda function is bundled, in one place: the CDK construct builds with these
 * settings, and the bundle benchmark (bench/bundles.ts) measures bundles built with the same ones.
 * Minified ESM for Node.js 22, tree-shaken, with the AWS SDK inside (no lookups in the runtime's
 * copy at cold start).
 */
export const lambdaBundling = {
  target: 'node22',
  format: 'esm' as const,
  minify: true,
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require(); give ESM bundles one.
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  // Lambda provides credentials in the environment: bundle an env-only provider, not the whole chain.
  alias: { '@aws-sdk/credential-provider-node': './infra/lambda-env-credentials.ts' },
};

export const functionEntry = (handler: string) => join(projectRoot, 'functions', handler, 'handler.ts');
