import { describe, expect, it } from 'vitest';
import { UsageError, parseClientCliArgs } from '../../../scripts/client-cli-args';

describe('parseClientCliArgs', () => {
  it('create: scopes expanded with --project, a default name, --json', () => {
    expect(parseClientCliArgs(['create', '--project', 'demo', '--scopes', 'manage_test view_test'])).toEqual({
      command: 'create',
      scopes: ['manage_test:demo', 'view_test:demo'],
      name: 'client of demo',
      json: false,
      store: { stack: undefined, table: undefined, endpoint: undefined, dataDir: undefined, region: undefined },
    });
    expect(parseClientCliArgs(['create', '--scopes', 'view_test:a1,manage_products:b2', '--name', 'shop', '--json'])).toMatchObject({
      scopes: ['view_test:a1', 'manage_products:b2'],
      name: 'shop',
      json: true,
    });
  });

  it('create: refuses missing, invalid or bare scopes without --project', () => {
    for (const argv of [
      ['create'],
      ['create', '--scopes', ''],
      ['create', '--scopes', 'manage_test'],
      ['create', '--scopes', 'root:demo'],
      ['create', '--scopes', 'manage_test:*'],
      ['create', '--project', 'a b', '--scopes', 'manage_test'],
      ['create', '--scopes', 'manage_test:demo', '--name', ''],
      ['create', '--scopes', 'manage_test:demo', 'extra'],
    ]) {
      expect(() => parseClientCliArgs(argv), argv.join(' ')).toThrow(UsageError);
    }
  });

  it('list, revoke and unlock', () => {
    expect(parseClientCliArgs(['list', '--project', 'demo'])).toMatchObject({ command: 'list', project: 'demo' });
    expect(parseClientCliArgs(['revoke', 'abc-123_X'])).toMatchObject({ command: 'revoke', clientId: 'abc-123_X' });
    expect(parseClientCliArgs(['unlock', 'abc', '--json'])).toMatchObject({ command: 'unlock', clientId: 'abc', json: true });
    for (const argv of [['revoke'], ['revoke', 'a', 'b'], ['revoke', 'bad id'], ['revoke', 'a', '--scopes', 'x'], ['list', '--scopes', 'x'], ['list', 'x']]) {
      expect(() => parseClientCliArgs(argv), argv.join(' ')).toThrow(UsageError);
    }
  });

  it('help, unknown commands and options', () => {
    expect(parseClientCliArgs([])).toEqual({ command: 'help', exitCode: 1 });
    expect(parseClientCliArgs(['--help'])).toEqual({ command: 'help', exitCode: 0 });
    expect(() => parseClientCliArgs(['delete', 'x'])).toThrow(UsageError);
    expect(() => parseClientCliArgs(['list', '--secret'])).toThrow(UsageError);
    expect(() => parseClientCliArgs(['list', '--stack', 'S', '--table', 'T'])).toThrow(UsageError);
  });

  it('passes the store options on (resolved by scripts/service-table.ts, test/unit/auth/service-table.test.ts)', () => {
    expect(parseClientCliArgs(['list', '--stack', 'GenericResourceService-eu-aws', '--region', 'eu-central-1'])).toMatchObject({
      store: { stack: 'GenericResourceService-eu-aws', region: 'eu-central-1' },
    });
    expect(parseClientCliArgs(['revoke', 'abc', '--endpoint', 'http://h:1', '--table', 'T', '--data-dir', '/d'])).toMatchObject({
      store: { table: 'T', endpoint: 'http://h:1', dataDir: '/d' },
    });
  });
});
