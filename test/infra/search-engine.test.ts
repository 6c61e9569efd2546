import { spawnSync } from 'node:child_process';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '../../infra/constructs/monitoring';
import { SEARCH_DATABASE_NAME, SEARCH_DATABASE_USERS, SEARCH_DATABASE_USERS_SQL } from '../../infra/search-database-users';
import { GenericResourceServiceStack, SEARCH_CAPACITY, type GenericResourceServiceStackProps } from '../../infra/stack';

/** What search adds to the stack: the cluster, its network, its users, and the stream's second reader. */
const build = (props: Partial<GenericResourceServiceStackProps> = {}) =>
  Template.fromStack(
    new GenericResourceServiceStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'GenericResourceService-europe-west1-gcp', {
      region: 'europe-west1',
      cloudProvider: 'gcp',
      env: { account: '123456789012', region: 'eu-west-1' },
      ...props,
    }),
  );

let template: Template;
beforeAll(() => {
  template = build();
});

const resourcesOf = (type: string) => Object.entries(template.findResources(type)) as [string, any][];
const statementsOf = (functionId: string) =>
  resourcesOf('AWS::IAM::Policy')
    .filter(([id]) => id.startsWith(`${functionId}ServiceRoleDefaultPolicy`))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as any[]);

describe('the search cluster', () => {
  it('is Aurora PostgreSQL Serverless v2 that pauses at 0 ACU when idle, with IAM sign-in and encrypted storage', () => {
    template.hasResourceProperties('AWS::RDS::DBCluster', {
      Engine: 'aurora-postgresql',
      EngineVersion: Match.stringLikeRegexp('^1[67]\\.'),
      DatabaseName: SEARCH_DATABASE_NAME,
      ServerlessV2ScalingConfiguration: { MinCapacity: 0, MaxCapacity: SEARCH_CAPACITY.max, SecondsUntilAutoPause: 300 },
      EnableIAMDatabaseAuthentication: true,
      StorageEncrypted: true,
    });
    template.hasResourceProperties('AWS::RDS::DBInstance', { DBInstanceClass: 'db.serverless', PubliclyAccessible: false });
    template.resourceCountIs('AWS::RDS::DBInstance', 1);
  });

  it('stays awake at the minimum the deployment names (-c searchMinCapacity=0.5), and scales to its maximum', () => {
    build({ searchMinCapacity: 0.5, searchMaxCapacity: 8 }).hasResourceProperties('AWS::RDS::DBCluster', {
      ServerlessV2ScalingConfiguration: { MinCapacity: 0.5, MaxCapacity: 8, SecondsUntilAutoPause: Match.absent() },
    });
  });

  it('is an index of the table: a deleted stack leaves a snapshot of it', () => {
    template.hasResource('AWS::RDS::DBCluster', { DeletionPolicy: 'Snapshot', UpdateReplacePolicy: 'Snapshot' });
  });

  it('refuses a capacity that is not whole or half units (-c searchMinCapacity)', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ region: 'r', cloudProvider: 'c', searchMinCapacity: '0.25', 'aws:cdk:bundling-stacks': [] }) };
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'infra/app.ts'], { env, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('-c searchMinCapacity=0.25 is not a number of Aurora capacity units');
  });
});

describe('its network', () => {
  it('has isolated subnets in two zones and no way out: no NAT gateway, no internet gateway, no route', () => {
    template.resourceCountIs('AWS::EC2::VPC', 1);
    template.resourceCountIs('AWS::EC2::Subnet', 2);
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::InternetGateway', 0);
    template.resourceCountIs('AWS::EC2::Route', 0);
    template.allResourcesProperties('AWS::EC2::Subnet', { MapPublicIpOnLaunch: false });
  });

  it('reaches DynamoDB through a gateway endpoint on both subnets\' routes', () => {
    template.resourceCountIs('AWS::EC2::VPCEndpoint', 1);
    template.hasResourceProperties('AWS::EC2::VPCEndpoint', {
      VpcEndpointType: 'Gateway',
      ServiceName: { 'Fn::Join': ['', ['com.amazonaws.', { Ref: 'AWS::Region' }, '.dynamodb']] },
      RouteTableIds: [Match.anyValue(), Match.anyValue()],
    });
  });

  it('holds search-resources and index-changes, the two functions that declare a search permission, and no other', () => {
    const inNetwork = resourcesOf('AWS::Lambda::Function')
      .filter(([, fn]) => fn.Properties.VpcConfig)
      .map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));
    expect(inNetwork.sort()).toEqual(['IndexChanges', 'SearchResources']);
  });

  it('admits to the cluster\'s port only those two functions\' security groups', () => {
    const ingress = resourcesOf('AWS::EC2::SecurityGroupIngress').map(([, rule]) => rule.Properties);
    expect(ingress).toHaveLength(2);
    for (const rule of ingress) {
      expect(rule.GroupId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^SearchEngineClusterSecurityGroup/), 'GroupId'] });
      expect(rule.FromPort).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^SearchEngineCluster/), 'Endpoint.Port'] });
    }
    expect(ingress.map((rule) => rule.SourceSecurityGroupId['Fn::GetAtt'][0].replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['IndexChangesSecurityGroup', 'SearchResourcesSecurityGroup']);
  });
});

describe('who signs in as whom', () => {
  const connectsAs = (functionId: string) =>
    statementsOf(functionId)
      .filter((statement) => statement.Action === 'rds-db:connect')
      .map((statement) => JSON.stringify(statement.Resource).match(/dbuser:.*\/(\w+)"/)?.[1]);

  it('search signs in as the reader, the indexer as the writer, each as that user only; no other function at all', () => {
    expect(connectsAs('SearchResources')).toEqual([SEARCH_DATABASE_USERS.reader]);
    expect(connectsAs('IndexChanges')).toEqual([SEARCH_DATABASE_USERS.writer]);
    const connecting = resourcesOf('AWS::IAM::Policy').filter(([, policy]) => JSON.stringify(policy).includes('rds-db:connect'));
    expect(connecting.map(([id]) => id.replace(/ServiceRoleDefaultPolicy.*$/, '')).sort()).toEqual(['IndexChanges', 'SearchResources']);
  });

  it('tells each function where the engine is and as whom it signs in, with the certificates that trust RDS', () => {
    const environmentOf = (prefix: string) => resourcesOf('AWS::Lambda::Function').find(([id]) => id.startsWith(prefix))![1].Properties.Environment.Variables;
    for (const [prefix, user] of [['SearchResources', SEARCH_DATABASE_USERS.reader], ['IndexChanges', SEARCH_DATABASE_USERS.writer]] as const) {
      expect(environmentOf(prefix)).toMatchObject({
        SEARCH_DATABASE_HOST: { 'Fn::GetAtt': [expect.stringMatching(/^SearchEngineCluster/), 'Endpoint.Address'] },
        SEARCH_DATABASE_PORT: { 'Fn::GetAtt': [expect.stringMatching(/^SearchEngineCluster/), 'Endpoint.Port'] },
        SEARCH_DATABASE_NAME,
        SEARCH_DATABASE_USER: user,
        NODE_EXTRA_CA_CERTS: '/var/runtime/ca-cert.pem',
      });
    }
    expect(environmentOf('GetResource').SEARCH_DATABASE_HOST).toBeUndefined();
  });

  it('creates the users at deploy through the Data API, with the master secret, after the cluster', () => {
    const users = resourcesOf('Custom::AWS')[0]![1];
    // The call as the custom resource's function reads it, with each reference to another resource as 'ref'.
    const call = JSON.parse(users.Properties.Create['Fn::Join'][1].map((part: unknown) => (typeof part === 'string' ? part : 'ref')).join(''));
    expect(call).toMatchObject({ service: 'RDSData', action: 'executeStatement', parameters: { database: SEARCH_DATABASE_NAME, sql: SEARCH_DATABASE_USERS_SQL } });
    expect(users.DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^SearchEngineCluster[0-9A-F]{8}$/), expect.stringMatching(/^SearchEngineClusterWriter/)]));
    const policy = resourcesOf('AWS::IAM::Policy').find(([id]) => id.startsWith('SearchEngineUsersCustomResourcePolicy'))![1];
    expect(policy.Properties.PolicyDocument.Statement.map((statement: any) => statement.Action)).toEqual(['rds-data:ExecuteStatement', 'secretsmanager:GetSecretValue']);
  });
});

describe('the search indexer', () => {
  it('is invoked once at deploy with no change, after the users exist, so that its tables exist before the first write', () => {
    const [, tables] = resourcesOf('Custom::AWS').find(([id]) => id.startsWith('SearchIndexTables'))!;
    const call = JSON.parse(tables.Properties.Create['Fn::Join'][1].map((part: unknown) => (typeof part === 'string' ? part : 'ref')).join(''));
    expect(call).toMatchObject({ service: 'Lambda', action: 'invoke', parameters: { FunctionName: 'ref', Payload: JSON.stringify({ Records: [] }) } });
    expect(tables.DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^SearchEngineUsers/)]));
    const policy = resourcesOf('AWS::IAM::Policy').find(([id]) => id.startsWith('SearchIndexTablesCustomResourcePolicy'))![1];
    expect(policy.Properties.PolicyDocument.Statement.map((statement: any) => statement.Action)).toEqual(['lambda:InvokeFunction']);
  });

  it('reads the table\'s stream on its own, beside the subscriptions\' consumer: resource items, bisected, retried, then its own queue', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: Match.stringLikeRegexp('^IndexChanges') },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SearchIndexFailedBatches'), 'Arn'] } } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ dynamodb: { Keys: { sk: { S: [{ prefix: 'RESOURCE#' }] } } } }) }] },
    });
  });

  it('alarms on failed batches and on falling behind, and shows both on the dashboard', () => {
    const alarmNamed = (prefix: string) => resourcesOf('AWS::CloudWatch::Alarm').find(([id]) => id.includes(prefix))?.[1].Properties;
    expect(alarmNamed('SearchIndexFailedBatches')).toMatchObject({
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [expect.stringMatching(/^SearchIndexFailedBatches/), 'QueueName'] } }],
      Threshold: ALARM_THRESHOLDS.searchIndexFailedBatches,
    });
    expect(alarmNamed('SearchIndexIteratorAge')).toMatchObject({
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: expect.stringMatching(/^IndexChanges/) } }],
      Threshold: ALARM_THRESHOLDS.searchIndexIteratorAgeMs,
      EvaluationPeriods: 3,
    });
    const dashboard = resourcesOf('AWS::CloudWatch::Dashboard')[0]![1];
    expect(JSON.stringify(dashboard.Properties.DashboardBody)).toContain('Search index: failed batches');
  });
});
