import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { deploymentContext } from '../../infra/deployment-context';
import { GenericResourceServiceStack } from '../../infra/stack';
import { LAST_MODIFIED_INDEX_NAME } from '../../shared/store/dynamodb/table-schema';
import { cdkApp } from '../support/cdk-app';

/** The table's lastModifiedAt index (default; `-c lastModifiedIndex=false` removes it), its functions' variable, its grant. */
const build = (lastModifiedIndex?: boolean) => {
  const app = cdkApp();
  const stack = new GenericResourceServiceStack(app, 'GenericResourceService-europe-west1-gcp', {
    region: 'europe-west1',
    cloudProvider: 'gcp',
    env: { account: '123456789012', region: 'eu-west-1' },
    ...(lastModifiedIndex === undefined ? {} : { lastModifiedIndex }),
  });
  return Template.fromStack(stack);
};

const tableOf = (template: Template) => Object.values(template.findResources('AWS::DynamoDB::GlobalTable'))[0]!.Properties;
const functionOf = (template: Template, idPrefix: string) =>
  Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(idPrefix))!;
/** The statements of the function's policy that allow `action`. */
const statementsOf = (template: Template, functionId: string, action: string) => {
  const roleId = (functionOf(template, functionId)[1] as any).Properties.Role['Fn::GetAtt'][0];
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy: any) => policy.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((policy: any) => policy.Properties.PolicyDocument.Statement)
    .filter((statement: any) => [statement.Action].flat().includes(action));
};

describe('-c lastModifiedIndex', () => {
  it('is read from the context, on unless it is "false"', () => {
    const from = (values: Record<string, unknown>) => deploymentContext((name) => ({ region: 'r', cloudProvider: 'c', ...values })[name]);
    expect(from({}).lastModifiedIndex).toBe(true);
    expect(from({ lastModifiedIndex: 'true' }).lastModifiedIndex).toBe(true);
    expect(from({ lastModifiedIndex: 'false' }).lastModifiedIndex).toBe(false);
    expect(from({ lastModifiedIndex: false }).lastModifiedIndex).toBe(false);
  });

  it('false: no index, no variable, reads granted on the table only', () => {
    const template = build(false);
    expect(tableOf(template).GlobalSecondaryIndexes).toBeUndefined();
    const [, fn] = functionOf(template, 'QueryResources');
    expect((fn as any).Properties.Environment.Variables.LAST_MODIFIED_INDEX).toBeUndefined();
    for (const statement of statementsOf(template, 'QueryResources', 'dynamodb:Query')) {
      expect(JSON.stringify(statement.Resource)).not.toContain('/index/');
    }
  });

  it('by default: a KEYS_ONLY index on (pk, lastModifiedAt), the variable naming it, and Query on it held to the project partitions', () => {
    const template = build();
    expect(tableOf(template).GlobalSecondaryIndexes).toEqual([
      {
        IndexName: LAST_MODIFIED_INDEX_NAME,
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'lastModifiedAt', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ]);
    expect(tableOf(template).AttributeDefinitions).toContainEqual({ AttributeName: 'lastModifiedAt', AttributeType: 'S' });
    const [, fn] = functionOf(template, 'QueryResources');
    expect((fn as any).Properties.Environment.Variables.LAST_MODIFIED_INDEX).toBe(LAST_MODIFIED_INDEX_NAME);
    const statements = statementsOf(template, 'QueryResources', 'dynamodb:Query');
    expect(statements).toHaveLength(1);
    expect(JSON.stringify(statements[0].Resource)).toContain(`"/index/${LAST_MODIFIED_INDEX_NAME}"`);
    expect(statements[0].Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROJECT#*'] } });
    // Writers get nothing on the index: they write the table, DynamoDB writes the index.
    const writes = statementsOf(template, 'UpdateResource', 'dynamodb:UpdateItem');
    expect(JSON.stringify(writes.map((statement: any) => statement.Resource))).not.toContain('/index/');
  });
});
