import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

/**
 * Debian's headless Chromium loads `url` (the browser has no internet), runs its scripts, lets its
 * timers and fetches settle, and answers the DOM as it then is.
 */
export async function renderedDom(url: string): Promise<string> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}; the browser tests need it. Install it with ` +
        '`apt-get install -y chromium` (.ci/run does), or set CHROMIUM_BIN to a Chromium binary.',
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'grs-chromium-'));
  try {
    const { stdout } = await promisify(execFile)(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        // Let the page's timers and fetches settle before the DOM is dumped.
        '--virtual-time-budget=10000',
        '--dump-dom',
        url,
      ],
      { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
