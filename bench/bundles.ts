import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { functionEntry, lambdaBundling, projectRoot } from '../infra/bundling';
import { functions as declaredFunctions } from '../functions/endpoints';

export interface BundleFigures {
  bytes: number;
  /** Median time for a fresh Node.js process to import the bundle (module initialisation). */
  initMs: number;
}

const INIT_RUNS = 7;

/**
 * Cold-start proxies for every function: its bundle, built exactly as the CDK stack builds it,
 * and the median time a fresh Node.js process needs to import it, next to an empty bundle's.
 */
export async function measureBundles(): Promise<{ emptyInitMs: number; functions: Record<string, BundleFigures> }> {
  const outDir = await mkdtemp(join(tmpdir(), 'grs-bundles-'));
  try {
    const emptyEntry = join(outDir, 'empty.ts');
    await writeFile(emptyEntry, 'export const handler = async () => ({});\n');
    const empty = await bundle(emptyEntry, join(outDir, 'empty.mjs'));

    const handlers = declaredFunctions.map((declaration) => declaration.name).sort();
    const functions: Record<string, BundleFigures> = {};
    for (const handler of handlers) {
      const outfile = join(outDir, `${handler}.mjs`);
      functions[handler] = { bytes: (await bundle(functionEntry(handler), outfile)).bytes, initMs: medianInitMs(outfile) };
    }
    return { emptyInitMs: medianInitMs(empty.outfile), functions };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function bundle(entry: string, outfile: string) {
  const result = await build({
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
    metafile: true,
    logLevel: 'silent',
  });
  return { outfile, bytes: Object.values(result.metafile.outputs)[0]!.bytes };
}

function medianInitMs(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(`file://${file}`)}); console.log(performance.now() - t);`;
  const env = { ...process.env, AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'x', POWERTOOLS_METRICS_DISABLED: 'true' };
  const runs = Array.from({ length: INIT_RUNS }, () =>
    Number(execFileSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], { env, encoding: 'utf8' }).trim()),
  ).sort((a, b) => a - b);
  return Math.round(runs[Math.floor(INIT_RUNS / 2)]! * 10) / 10;
}
