import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { STORE_OPTIONS, UsageError, resolveServiceTable, storeOptionsOf } from '../../../scripts/service-table';

/**
 * Where `npm run client` and `npm run extension` find the service's table: one precedence for
 * both (scripts/service-table.ts). Both CLIs spread STORE_OPTIONS into their options and pass the
 * values through storeOptionsOf, as `parse` does here.
 */
const parse = (args: string[]) =>
  storeOptionsOf(parseArgs({ args, options: { json: { type: 'boolean' }, project: { type: 'string' }, ...STORE_OPTIONS }, allowPositionals: true }).values);

describe('storeOptionsOf: the shared store options', () => {
  it('reads --stack, --region, --table, --endpoint and --data-dir', () => {
    expect(parse(['list', '--project', 'demo', '--stack', 'GenericResourceService-eu-aws', '--region', 'eu-central-1'])).toEqual({
      stack: 'GenericResourceService-eu-aws',
      region: 'eu-central-1',
    });
    expect(parse(['list', '--table', 'T', '--endpoint', 'http://h:1', '--data-dir', '/d'])).toEqual({ table: 'T', endpoint: 'http://h:1', dataDir: '/d' });
    expect(parse(['list'])).toEqual({});
  });

  it('refuses --stack together with --table or --endpoint', () => {
    expect(() => parse(['list', '--stack', 'S', '--table', 'T'])).toThrow(UsageError);
    expect(() => parse(['list', '--stack', 'S', '--endpoint', 'http://h:1'])).toThrow(/either --stack or --table\/--endpoint/);
    expect(() => resolveServiceTable({ stack: 'S', table: 'T' }, {}, () => undefined)).toThrow(UsageError);
  });
});

describe('resolveServiceTable: where the table is', () => {
  const local = JSON.stringify({ dynamoDbEndpoint: 'http://127.0.0.1:8000', tableName: 'local-table' });
  const files = (contents: Record<string, string>) => (file: string) => contents[file];
  const everything = { LOCAL_DATA_DIR: '/data', TABLE_NAME: 'env-table', AWS_ENDPOINT_URL_DYNAMODB: 'http://env:1' };

  it('--stack first, over endpoints.json and the environment; its region from --region, else AWS_REGION/AWS_DEFAULT_REGION', () => {
    expect(resolveServiceTable({ stack: 'GenericResourceService-eu-aws' }, { AWS_REGION: 'eu-west-1' }, files({}))).toEqual({
      kind: 'stack',
      stackName: 'GenericResourceService-eu-aws',
      region: 'eu-west-1',
    });
    expect(resolveServiceTable({ stack: 'S', region: 'eu-central-1' }, { ...everything, AWS_REGION: 'eu-west-1' }, files({ '/data/endpoints.json': local }))).toEqual({
      kind: 'stack',
      stackName: 'S',
      region: 'eu-central-1',
    });
    expect(resolveServiceTable({ stack: 'S' }, { AWS_DEFAULT_REGION: 'us-east-2' }, files({}))).toMatchObject({ region: 'us-east-2' });
    expect(resolveServiceTable({ stack: 'S' }, {}, files({}))).toEqual({ kind: 'stack', stackName: 'S', region: undefined });
  });

  it('then --table/--endpoint, over endpoints.json and the environment', () => {
    expect(resolveServiceTable({ table: 'T', region: 'us-east-1' }, {}, files({}))).toMatchObject({ kind: 'table', tableName: 'T', endpoint: undefined, region: 'us-east-1' });
    expect(resolveServiceTable({ table: 'T', endpoint: 'http://h:1' }, everything, files({ '/data/endpoints.json': local }))).toEqual({
      kind: 'table',
      tableName: 'T',
      endpoint: 'http://h:1',
      region: undefined,
      source: 'the command line',
    });
    // Only --endpoint: TABLE_NAME, else the local stack's table name.
    expect(resolveServiceTable({ endpoint: 'http://h:1' }, everything, files({}))).toMatchObject({ tableName: 'env-table', endpoint: 'http://h:1' });
    expect(resolveServiceTable({ endpoint: 'http://h:1' }, {}, files({}))).toMatchObject({ tableName: 'generic-resource-service', endpoint: 'http://h:1' });
  });

  it('then the local stack through <--data-dir or LOCAL_DATA_DIR or .local>/endpoints.json, when it exists, over the environment', () => {
    expect(resolveServiceTable({}, everything, files({ '/data/endpoints.json': local }))).toEqual({
      kind: 'table',
      tableName: 'local-table',
      endpoint: 'http://127.0.0.1:8000',
      region: 'local',
      source: '/data/endpoints.json',
    });
    expect(resolveServiceTable({ dataDir: '/x' }, everything, files({ '/x/endpoints.json': local, '/data/endpoints.json': '{' }))).toMatchObject({ tableName: 'local-table' });
    expect(resolveServiceTable({}, {}, files({ [resolve('.local', 'endpoints.json')]: local }))).toMatchObject({ tableName: 'local-table' });
    expect(resolveServiceTable({ region: 'eu-central-1' }, { LOCAL_DATA_DIR: '/data' }, files({ '/data/endpoints.json': local }))).toMatchObject({ region: 'eu-central-1' });
    expect(() => resolveServiceTable({}, { LOCAL_DATA_DIR: '/data' }, files({ '/data/endpoints.json': '{' }))).toThrow(UsageError);
    expect(() => resolveServiceTable({}, { LOCAL_DATA_DIR: '/data' }, files({ '/data/endpoints.json': '{}' }))).toThrow(UsageError);
  });

  it('then TABLE_NAME and AWS_ENDPOINT_URL_DYNAMODB; with nothing, a usage error', () => {
    expect(resolveServiceTable({}, { ...everything, LOCAL_DATA_DIR: '/none' }, files({}))).toEqual({
      kind: 'table',
      tableName: 'env-table',
      endpoint: 'http://env:1',
      region: undefined,
      source: 'the environment',
    });
    expect(resolveServiceTable({}, { LOCAL_DATA_DIR: '/none', TABLE_NAME: 'T', AWS_REGION: 'eu-west-1' }, files({}))).toMatchObject({
      tableName: 'T',
      endpoint: undefined,
      region: 'eu-west-1',
    });
    // AWS_ENDPOINT_URL_DYNAMODB alone names no table.
    expect(() => resolveServiceTable({}, { LOCAL_DATA_DIR: '/none', AWS_ENDPOINT_URL_DYNAMODB: 'http://env:1' }, files({}))).toThrow(/endpoints\.json/);
    expect(() => resolveServiceTable({}, { LOCAL_DATA_DIR: '/none' }, files({}))).toThrow(/neither --stack, --table nor TABLE_NAME/);
  });
});
