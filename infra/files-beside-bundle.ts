import { posix } from 'node:path';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * Bundling hooks that copy the files a function declares (`filesBesideBundle`, paths from the
 * repository root) next to its bundle, where the handler reads them: files esbuild does not bundle,
 * like Swagger UI's script and style sheet. The paths are the bundler's own (also inside its container).
 */
export function copyBesideBundle(files: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => files.map((file) => `cp "${inputDir}/${file}" "${outputDir}/${posix.basename(file)}"`),
  };
}
