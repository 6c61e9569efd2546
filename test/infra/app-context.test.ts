import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { deploymentContext, MISSING_PAIRING_MESSAGE, MissingPairingError } from '../../infra/deployment-context';

/** Runs the CDK app entry as `cdk synth|deploy` does (cdk.json), with the context the CLI would pass. */
function runApp(context: Record<string, unknown> | undefined) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CDK_CONTEXT_JSON;
  if (context) env.CDK_CONTEXT_JSON = JSON.stringify(context);
  return spawnSync(process.execPath, ['--import', 'tsx', 'infra/app.ts'], { env, encoding: 'utf8' });
}

describe('npm run synth / deploy without naming the pairing', () => {
  it.each([
    ['no context', undefined],
    ['only a region', { region: 'europe-west1' }],
    ['only a cloud provider', { cloudProvider: 'gcp' }],
    ['an empty region', { region: '', cloudProvider: 'gcp' }],
  ])('%s: one line saying what to type, a non-zero exit, no stack trace', (_, context) => {
    const run = runApp(context);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`${MISSING_PAIRING_MESSAGE}\n`);
    expect(run.stdout).toBe('');
    expect(MISSING_PAIRING_MESSAGE).toContain('npm run deploy -- -c region=');
  });

  it('-c waf=true without a stable -c edgeSecret: one line saying what to pass, exit 2', () => {
    for (const edgeSecret of [undefined, 'short']) {
      const run = runApp({ region: 'europe-west1', cloudProvider: 'gcp', waf: 'true', ...(edgeSecret ? { edgeSecret } : {}), 'aws:cdk:bundling-stacks': [] });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe('-c waf=true needs -c edgeSecret=<at least 16 random characters>, the same on every deploy (docs/security.md).\n');
    }
  });

  it('with the pairing named, the app builds its stack', () => {
    const run = runApp({ region: 'europe-west1', cloudProvider: 'gcp', 'aws:cdk:bundling-stacks': [] });
    expect(run.stderr).not.toContain(MISSING_PAIRING_MESSAGE);
    expect(run.status).toBe(0);
  });
});

describe('deploymentContext', () => {
  const from = (values: Record<string, string>) => deploymentContext((name) => values[name]);

  it('reads the pairing and no custom domain', () => {
    expect(from({ region: 'europe-west1', cloudProvider: 'gcp' })).toEqual({ region: 'europe-west1', cloudProvider: 'gcp', customDomain: undefined, lastModifiedIndex: true, accessLog: true });
  });

  it('reads a custom domain with its hosted zone, named after the domain unless told', () => {
    expect(from({ region: 'r', cloudProvider: 'c', domain: 'example.com', hostedZoneId: 'Z1' }).customDomain).toEqual({
      domain: 'example.com',
      hostedZone: { id: 'Z1', name: 'example.com' },
      certificateArn: undefined,
    });
    expect(from({ region: 'r', cloudProvider: 'c', domain: 'example.com', certificateArn: 'arn:cert' }).customDomain).toEqual({
      domain: 'example.com',
      hostedZone: undefined,
      certificateArn: 'arn:cert',
    });
  });

  it('refuses a missing pairing with the usage error', () => {
    expect(() => from({ region: 'r' })).toThrow(MissingPairingError);
  });
});
