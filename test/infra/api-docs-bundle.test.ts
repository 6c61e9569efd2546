import { App, Stack } from 'aws-cdk-lib';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getApiDocs } from '../../functions/get-api-docs/endpoint';
import { EndpointFunction } from '../../infra/constructs/endpoint-function';
import { API_DOCS_ASSETS, swaggerUiDist } from '../../shared/http/api-docs';

let outdir: string | undefined;
afterAll(async () => {
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

describe('the API reference function', () => {
  it('is bundled with Swagger UI\'s two files next to its code (real esbuild bundling)', async () => {
    outdir = await mkdtemp(join(tmpdir(), 'grs-cdk-'));
    const app = new App({ outdir });
    new EndpointFunction(new Stack(app, 'ApiDocs'), 'GetApiDocs', { handler: getApiDocs.name, environment: {}, filesBesideBundle: getApiDocs.filesBesideBundle });
    app.synth();

    const bundle = readdirSync(outdir)
      .filter((entry) => entry.startsWith('asset.'))
      .map((entry) => join(outdir!, entry))
      .find((dir) => existsSync(join(dir, 'index.mjs')));
    expect(bundle).toBeDefined();
    for (const name of Object.keys(API_DOCS_ASSETS)) {
      expect(readFileSync(join(bundle!, name), 'utf8')).toBe(readFileSync(join(swaggerUiDist()[0]!, name), 'utf8'));
    }
  });
});
