import { App, Stack } from 'aws-cdk-lib';
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { functionEntry, lambdaEsbuildOptions } from '../../infra/bundling';
import { EndpointFunction } from '../../infra/constructs/endpoint-function';

let outdir: string | undefined;
afterAll(async () => {
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

describe('Lambda bundling', () => {
  it('builds the same bundle for `cdk synth` and for the cold-start bench (one set of esbuild options)', async () => {
    outdir = await mkdtemp(join(tmpdir(), 'grs-bundling-'));
    const app = new App({ outdir });
    new EndpointFunction(new Stack(app, 'Bundling'), 'GetResource', { handler: 'get-resource', environment: {} });
    app.synth();
    const asset = readdirSync(outdir)
      .filter((entry) => entry.startsWith('asset.'))
      .map((entry) => join(outdir!, entry, 'index.mjs'))
      .find((file) => existsSync(file));
    expect(asset).toBeDefined();

    const benchBundle = join(outdir, 'bench.mjs');
    await build({ ...lambdaEsbuildOptions(functionEntry('get-resource'), benchBundle), logLevel: 'silent' });
    expect(readFileSync(benchBundle, 'utf8')).toBe(readFileSync(asset!, 'utf8'));
  });
});
