import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { API_DOCS_ASSETS } from '../shared/http/api-docs';

/**
 * The get-api-docs function serves Swagger UI's two files, which esbuild does not bundle: these
 * hooks copy them from node_modules/swagger-ui-dist next to the bundle, where the handler looks
 * first (shared/http/api-docs.ts). The paths are the bundler's own (also inside its container).
 */
export const copyApiDocsAssets: ICommandHooks = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir, outputDir) =>
    Object.keys(API_DOCS_ASSETS).map((name) => `cp "${inputDir}/node_modules/swagger-ui-dist/${name}" "${outputDir}/${name}"`),
};
