import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, parseClientCliArgs, resolveStore } from '../../../scripts/client-cli-args';

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
});

describe('resolveStore: where the clients live', () => {
  const local = JSON.stringify({ dynamoDbEndpoint: 'http://127.0.0.1:8000', tableName: 'local-table' });
  const files = (contents: Record<string, string>) => (file: string) => contents[file];

  it('--stack first, then --table/--endpoint', () => {
    expect(resolveStore({ stack: 'GenericResourceService-eu-aws' }, { AWS_REGION: 'eu-west-1' }, files({}))).toEqual({
      kind: 'stack',
      stackName: 'GenericResourceService-eu-aws',
      region: 'eu-west-1',
    });
    expect(resolveStore({ table: 'T', region: 'us-east-1' }, {}, files({}))).toMatchObject({ kind: 'table', tableName: 'T', endpoint: undefined, region: 'us-east-1' });
  });

  it('then the local stack through <LOCAL_DATA_DIR or .local>/endpoints.json, when it exists', () => {
    expect(resolveStore({}, { LOCAL_DATA_DIR: '/data', TABLE_NAME: 'ignored' }, files({ '/data/endpoints.json': local }))).toMatchObject({
      kind: 'table',
      tableName: 'local-table',
      endpoint: 'http://127.0.0.1:8000',
      region: 'local',
    });
    expect(resolveStore({ dataDir: '/x' }, {}, files({ '/x/endpoints.json': local }))).toMatchObject({ tableName: 'local-table' });
    expect(resolveStore({}, {}, files({ [resolve('.local', 'endpoints.json')]: local }))).toMatchObject({ tableName: 'local-table' });
    expect(() => resolveStore({}, { LOCAL_DATA_DIR: '/data' }, files({ '/data/endpoints.json': '{' }))).toThrow(UsageError);
    expect(() => resolveStore({}, { LOCAL_DATA_DIR: '/data' }, files({ '/data/endpoints.json': '{}' }))).toThrow(UsageError);
  });

  it('then TABLE_NAME and AWS_ENDPOINT_URL_DYNAMODB; with nothing, a usage error', () => {
    expect(resolveStore({}, { LOCAL_DATA_DIR: '/none', TABLE_NAME: 'T', AWS_ENDPOINT_URL_DYNAMODB: 'http://h:1' }, files({}))).toMatchObject({
      kind: 'table',
      tableName: 'T',
      endpoint: 'http://h:1',
    });
    expect(() => resolveStore({}, { LOCAL_DATA_DIR: '/none' }, files({}))).toThrow(/endpoints\.json/);
  });
});
