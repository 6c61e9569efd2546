import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A Node.js 22 binary, the version of the Lambda runtime (nodejs22.x): cold starts are measured
 * with it whatever Node.js runs the bench. This process's own when it is 22; else BENCH_NODE22;
 * else npm's `node-<platform>-<arch>@22` package, installed once into a cache folder.
 */
export function node22(): string {
  if (process.versions.node.startsWith('22.')) return process.execPath;
  if (process.env.BENCH_NODE22) return process.env.BENCH_NODE22;
  const folder = join(tmpdir(), 'grs-bench-node22');
  const binary = join(folder, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
  if (!existsSync(binary)) {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', folder, `node-${process.platform}-${process.arch}@22`], {
      stdio: 'inherit',
    });
  }
  return binary;
}
