import { execFile } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { EXAMPLE_CALLS_HEADING } from '../../local/start-banner';

/**
 * The example calls `npm start` printed (the test stack is started exactly as `npm start`), pasted
 * into a shell as a newcomer would. The only addition: curl fails on an answer other than 2xx and
 * the shell stops at the first failure, so each call must succeed.
 */
function printedExampleCalls(output: string): string[] {
  const lines = output.split('\n');
  const heading = lines.indexOf(EXAMPLE_CALLS_HEADING);
  expect(heading, output).toBeGreaterThan(-1);
  const block = lines.slice(heading + 1);
  return block.slice(0, block.findIndex((line) => !line.startsWith('  '))).map((line) => line.slice(2));
}

function shell(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the start banner', () => {
  it('prints a token request, a create and a read of what was created', () => {
    const calls = printedExampleCalls(inject('startOutput'));
    expect(calls).toHaveLength(3);
    expect(calls[0]).toContain('/oauth/token');
    expect(calls[1]).toContain('-X POST');
  });

  it('its example calls answer 2xx as printed, and the last one shows the created resource', async () => {
    const calls = printedExampleCalls(inject('startOutput'));
    const strict = ['set -e -o pipefail', 'curl() { command curl --fail "$@"; }', ...calls].join('\n');
    for (const round of [1, 2]) {
      const run = await shell(strict);
      expect(run.code, `round ${round}: ${run.stderr}`).toBe(0);
      const resource = JSON.parse(run.stdout);
      expect(resource).toMatchObject({ version: 1, objectTypeProperty: { arrayOfIntExample: [1, 2, 3] } });
      expect(resource.id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
