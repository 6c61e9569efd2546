import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliverChanges } from '../../functions/deliver-changes/function';
import { indexChanges } from '../../functions/index-changes/function';
import { ALARM_THRESHOLDS, SEARCH_FAILURES_METRICS_FILTER } from '../../infra/constructs/monitoring';
import { searchConnectionBudget } from '../../infra/search-connection-budget';
import { SEARCH_DATABASE_NAME, SEARCH_DATABASE_USERS, searchDatabaseUsersSql } from '../../infra/search-database-users';
import { GenericResourceServiceStack, SEARCH_CAPACITY, SEARCH_FAILURES_DAYS, type GenericResourceServiceStackProps } from '../../infra/stack';
import type { TableStreamReading } from '../../shared/http/declaration';
import { SEARCH_INDEX_VERSION } from '../../shared/store/postgres/search-schema';
import { cdkApp } from '../support/cdk-app';

/** What search adds to the stack: the cluster, its network, its users, and the stream's second reader. */
const build = (props: Partial<GenericResourceServiceStackProps> = {}) =>
  Template.fromStack(
    new GenericResourceServiceStack(cdkApp(), 'GenericResourceService-europe-west1-gcp', {
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

  it('reaches DynamoDB and S3 (the indexer\'s failures bucket) through gateway endpoints on both subnets\' routes', () => {
    template.resourceCountIs('AWS::EC2::VPCEndpoint', 2);
    for (const service of ['dynamodb', 's3']) {
      template.hasResourceProperties('AWS::EC2::VPCEndpoint', {
        VpcEndpointType: 'Gateway',
        ServiceName: { 'Fn::Join': ['', ['com.amazonaws.', { Ref: 'AWS::Region' }, `.${service}`]] },
        RouteTableIds: [Match.anyValue(), Match.anyValue()],
      });
    }
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
    const sql = searchDatabaseUsersSql(searchConnectionBudget(SEARCH_CAPACITY.max));
    expect(call).toMatchObject({ service: 'RDSData', action: 'executeStatement', parameters: { database: SEARCH_DATABASE_NAME, sql } });
    expect(users.DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^SearchEngineCluster[0-9A-F]{8}$/), expect.stringMatching(/^SearchEngineClusterWriter/)]));
    const policy = resourcesOf('AWS::IAM::Policy').find(([id]) => id.startsWith('SearchEngineUsersCustomResourcePolicy'))![1];
    expect(policy.Properties.PolicyDocument.Statement.map((statement: any) => statement.Action)).toEqual(['rds-data:ExecuteStatement', 'secretsmanager:GetSecretValue']);
  });
});

const functionNamed = (prefix: string) => resourcesOf('AWS::Lambda::Function').find(([id]) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id))!;

describe('connections, bounded by design', () => {
  const usersSqlOf = (built: Template) => {
    const [, users] = Object.entries(built.findResources('Custom::AWS')).find(([id]) => id.startsWith('SearchEngineUsers'))! as [string, any];
    return JSON.parse(users.Properties.Create['Fn::Join'][1].map((part: unknown) => (typeof part === 'string' ? part : 'ref')).join('')).parameters.sql as string;
  };
  const reservedOf = (built: Template, prefix: string) =>
    Object.entries(built.findResources('AWS::Lambda::Function')).find(([id]) => new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id))![1].Properties.ReservedConcurrentExecutions;

  it('runs at most as many search and indexer instances as the engine gives each user connections, derived from its maximum capacity', () => {
    for (const [built, maxAcu] of [[template, SEARCH_CAPACITY.max], [build({ searchMaxCapacity: 1 }), 1]] as const) {
      const budget = searchConnectionBudget(maxAcu);
      expect(reservedOf(built, 'SearchResources')).toBe(budget.search);
      expect(reservedOf(built, 'IndexChanges')).toBe(budget.indexer);
      // The engine enforces the same numbers per user (one connection per instance), and closes idle sessions.
      const sql = usersSqlOf(built);
      expect(sql).toContain(`ALTER ROLE ${SEARCH_DATABASE_USERS.reader} CONNECTION LIMIT ${budget.search};`);
      expect(sql).toContain(`ALTER ROLE ${SEARCH_DATABASE_USERS.writer} CONNECTION LIMIT ${budget.indexer};`);
      expect(sql).toMatch(new RegExp(`ALTER ROLE ${SEARCH_DATABASE_USERS.reader} SET idle_session_timeout = '60s'`));
      expect(budget.search + budget.indexer + budget.reserve).toBeLessThanOrEqual(budget.maxConnections);
    }
    // At 1 ACU the engine allows 189 connections: search gets what the indexer and the reserve leave.
    expect(searchConnectionBudget(1)).toMatchObject({ maxConnections: 189, search: 169, indexer: 10 });
    expect(searchConnectionBudget(4)).toMatchObject({ maxConnections: 823, search: 200 });
  });

  it('states the budget in docs/design.md as the stack derives it', () => {
    const design = readFileSync(new URL('../../docs/design.md', import.meta.url), 'utf8');
    const rows = [...design.matchAll(/^ {2}\| (\d+)(?: \(default\))?(?:, min (\d+))? \| ([\d,]+) \| (\d+) \| (\d+) \| ([\d,]+) \|$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const number = (text: string) => Number(text.replaceAll(',', ''));
    for (const [, maxAcu, minAcu, maxConnections, search, indexer, perSecond] of rows) {
      expect(searchConnectionBudget(Number(maxAcu), { minAcu: Number(minAcu ?? SEARCH_CAPACITY.min) }), `${maxAcu} ACU`).toMatchObject({
        maxConnections: number(maxConnections!),
        search: Number(search),
        indexer: Number(indexer),
        searchesPerSecond: number(perSecond!),
      });
    }
  });

  it('takes another search concurrency (-c searchConcurrency) up to what the engine leaves, and refuses more', () => {
    expect(reservedOf(build({ searchConcurrency: 50 }), 'SearchResources')).toBe(50);
    expect(() => build({ searchMaxCapacity: 1, searchConcurrency: 500 })).toThrow('-c searchConcurrency=500 is more than the 169 connections a maximum of 1 ACU leaves to search');
  });
});

describe('the search indexer', () => {
  const mappingOf = (functionPrefix: string) =>
    resourcesOf('AWS::Lambda::EventSourceMapping').find(([, mapping]) => mapping.Properties.FunctionName.Ref.startsWith(functionPrefix))![1].Properties;
  const declared = (reading: TableStreamReading) => ({
    BatchSize: reading.batchSize,
    MaximumRetryAttempts: reading.retryAttempts === 'until-expired' ? -1 : reading.retryAttempts,
    ...(reading.batchingWindowSeconds > 0 ? { MaximumBatchingWindowInSeconds: reading.batchingWindowSeconds } : {}),
  });

  it('reads the table\'s stream on its own, beside the subscriptions\' consumer, each as its declaration says: resource items, bisected, partial failures', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
    for (const [prefix, declaration] of [['IndexChanges', indexChanges], ['DeliverChanges', deliverChanges]] as const) {
      const mapping = mappingOf(prefix);
      expect(mapping).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] },
        StartingPosition: 'TRIM_HORIZON',
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ dynamodb: { Keys: { sk: { S: [{ prefix: 'RESOURCE#' }] } } } }) }] },
        ...declared(declaration.tableStream!),
      });
      if (declaration.tableStream!.batchingWindowSeconds === 0) expect(mapping.MaximumBatchingWindowInSeconds).toBeUndefined();
    }
    // The index's batches are never given up on a count: retried until their records expire (24 h).
    expect(mappingOf('IndexChanges').MaximumRetryAttempts).toBe(-1);
    expect(mappingOf('IndexChanges').MaximumRecordAgeInSeconds ?? -1).toBe(-1);
    // Subscriptions keep their queue of stream coordinates; the index keeps the failed records themselves.
    expect(mappingOf('DeliverChanges').DestinationConfig).toEqual({ OnFailure: { Destination: { 'Fn::GetAtt': [expect.stringMatching(/^ChangeStreamFailedBatches/), 'Arn'] } } });
    expect(mappingOf('IndexChanges').DestinationConfig).toEqual({ OnFailure: { Destination: { 'Fn::GetAtt': [expect.stringMatching(/^SearchIndexFailures/), 'Arn'] } } });
  });

  it('sets aside what it cannot index in a private, encrypted bucket that outlives the stack, told to it by name', () => {
    const [id, bucket] = resourcesOf('AWS::S3::Bucket').find(([bucketId]) => bucketId.startsWith('SearchIndexFailures'))!;
    expect(bucket).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: SEARCH_FAILURES_DAYS, Status: 'Enabled' }] },
      MetricsConfigurations: [{ Id: SEARCH_FAILURES_METRICS_FILTER }],
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    expect(functionNamed('IndexChanges')[1].Properties.Environment.Variables.SEARCH_INDEX_FAILURES_BUCKET).toEqual({ Ref: id });
    expect(functionNamed('SearchResources')[1].Properties.Environment.Variables.SEARCH_INDEX_FAILURES_BUCKET).toBeUndefined();
  });

  it('migrates the index at deploy through a provider whose handler is the indexer itself: its failure fails the deploy', () => {
    // No AwsCustomResource invokes the indexer (its Lambda call would succeed on a failed invocation).
    for (const [, resource] of resourcesOf('Custom::AWS')) expect(JSON.stringify(resource.Properties.Create)).not.toContain('"service":"Lambda"');
    const [, migration] = resourcesOf('Custom::SearchIndexMigration')[0]!;
    expect(migration.Properties).toEqual({
      ServiceToken: { 'Fn::GetAtt': [expect.stringMatching(/^SearchIndexMigrationsframeworkonEvent/), 'Arn'] },
      Step: 'migrate',
      IndexVersion: String(SEARCH_INDEX_VERSION),
    });
    // The provider framework answers CloudFormation FAILED when the handler throws, and polls isComplete until it says so.
    const indexer = { 'Fn::GetAtt': [expect.stringMatching(/^IndexChanges[0-9A-F]{8}$/), 'Arn'] };
    expect(functionNamed('SearchIndexMigrationsframeworkonEvent')[1].Properties.Environment.Variables).toMatchObject({ USER_ON_EVENT_FUNCTION_ARN: indexer, USER_IS_COMPLETE_FUNCTION_ARN: indexer });
    const [, waiter] = resourcesOf('AWS::StepFunctions::StateMachine').find(([stateMachineId]) => stateMachineId.startsWith('SearchIndexMigrationswaiterstatemachine'))!;
    const definition = JSON.stringify(waiter.Properties.DefinitionString);
    // An hour (the framework's longest) in 10-second polls: long enough for a rebuild.
    expect(definition).toContain('\\"IntervalSeconds\\":10');
    expect(definition).toContain('\\"MaxAttempts\\":360');
    // The indexer's timeout leaves a slice minutes.
    expect(functionNamed('IndexChanges')[1].Properties.Timeout).toBe(300);
  });

  it('orders the deploy: users, then the migration, then the functions that read the index, then the retirement of old versions', () => {
    const [migrationId, migration] = resourcesOf('Custom::SearchIndexMigration')[0]!;
    expect(migration.DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^SearchEngineCluster[0-9A-F]{8}$/), expect.stringMatching(/^SearchEngineUsers[0-9A-F]{8}$/)]));
    const [searchId, search] = functionNamed('SearchResources');
    expect(search.DependsOn).toContain(migrationId);
    const [, retirement] = resourcesOf('Custom::SearchIndexRetirement')[0]!;
    expect(retirement.Properties).toMatchObject({ Step: 'retire', IndexVersion: String(SEARCH_INDEX_VERSION), ServiceToken: migration.Properties.ServiceToken });
    expect(retirement.DependsOn).toEqual([searchId]);
    // The indexer itself is updated before: the provider that invokes it references it.
    expect(functionNamed('IndexChanges')[1].DependsOn ?? []).not.toContain(migrationId);
  });
});

describe('alarms of search', () => {
  const alarmNamed = (prefix: string) => resourcesOf('AWS::CloudWatch::Alarm').find(([id]) => id.startsWith(`Monitoring${prefix}`))?.[1].Properties;
  const metricsOf = (alarm: any) => alarm.Metrics.filter((query: any) => query.MetricStat).map((query: any) => query.MetricStat.Metric);
  const onCluster = [{ Name: 'DBClusterIdentifier', Value: { Ref: expect.stringMatching(/^SearchEngineCluster/) } }];
  const budget = searchConnectionBudget(SEARCH_CAPACITY.max);

  it('watch the cluster\'s connections, capacity and memory', () => {
    expect(alarmNamed('SearchClusterConnections')).toMatchObject({
      Namespace: 'AWS/RDS',
      MetricName: 'DatabaseConnections',
      Dimensions: onCluster,
      Statistic: 'Maximum',
      Threshold: Math.floor(((budget.search + budget.indexer) * ALARM_THRESHOLDS.searchConnectionsPercent) / 100),
    });
    expect(alarmNamed('SearchClusterCapacity')).toMatchObject({ Namespace: 'AWS/RDS', MetricName: 'ACUUtilization', Dimensions: onCluster, Threshold: 90, EvaluationPeriods: 3 });
    expect(alarmNamed('SearchClusterMemory')).toMatchObject({
      Namespace: 'AWS/RDS',
      MetricName: 'FreeableMemory',
      Dimensions: onCluster,
      ComparisonOperator: 'LessThanThreshold',
      Threshold: SEARCH_CAPACITY.max * 2 * 1024 ** 3 * 0.1,
    });
  });

  it('watch search\'s own 503 rate, apart from the API\'s 5xx', () => {
    const alarm = alarmNamed('SearchUnavailable');
    expect(alarm).toMatchObject({ Threshold: ALARM_THRESHOLDS.searchUnavailablePercent, EvaluationPeriods: 3 });
    expect(metricsOf(alarm)).toEqual([
      expect.objectContaining({ MetricName: 'SearchUnavailable' }),
      expect.objectContaining({ MetricName: 'Latency', Dimensions: [{ Name: 'route', Value: 'GET /{projectKey}/resource/searchApiPattern' }] }),
    ]);
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: Match.stringLikeRegexp('^SearchResourcesLogs') },
      FilterPattern: '{ $.status = 503 }',
      MetricTransformations: [Match.objectLike({ MetricName: 'SearchUnavailable', MetricValue: '1' })],
    });
  });

  it('watch what is set aside (records arriving in the failures bucket) and falling behind, and show them on the dashboard', () => {
    expect(alarmNamed('SearchIndexRecordsSetAside')).toMatchObject({
      Namespace: 'AWS/S3',
      MetricName: 'PutRequests',
      Dimensions: [
        { Name: 'BucketName', Value: { Ref: expect.stringMatching(/^SearchIndexFailures/) } },
        { Name: 'FilterId', Value: SEARCH_FAILURES_METRICS_FILTER },
      ],
      Threshold: ALARM_THRESHOLDS.searchIndexRecordsSetAside,
    });
    expect(alarmNamed('SearchIndexIteratorAge')).toMatchObject({
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: expect.stringMatching(/^IndexChanges/) } }],
      Threshold: ALARM_THRESHOLDS.searchIndexIteratorAgeMs,
      EvaluationPeriods: 3,
    });
    const dashboard = JSON.stringify(resourcesOf('AWS::CloudWatch::Dashboard')[0]![1].Properties.DashboardBody);
    for (const title of ['Search index: records set aside', 'Search cluster: connections', 'Search: 503 (% of searches)']) expect(dashboard).toContain(title);
  });
});
