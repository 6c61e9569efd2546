import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ALARM_THRESHOLDS, REFUSALS_PER_CLIENT_QUERY, REQUEST_METRICS, metricsNamespaceOf } from '../../infra/constructs/monitoring';
import { endpoints, fallback } from '../../functions/endpoints';
import { AWS_CUSTOM_RESOURCE_FUNCTION_ID } from '../../infra/constructs/search-engine';
import { logger } from '../../shared/observability/logger';
import { GenericResourceServiceStack, type GenericResourceServiceStackProps } from '../../infra/stack';
import { AUTHORIZER_REFUSAL_MESSAGE } from '../../shared/auth/authorizer-settings';
import { cdkApp } from '../support/cdk-app';

const STACK_NAME = 'GenericResourceService-europe-west1-gcp';
/** The stack's own metrics: a namespace per stack, so two pairings in one account never mix. */
const METRICS_NAMESPACE = metricsNamespaceOf(STACK_NAME);

const synth = (props: Partial<GenericResourceServiceStackProps> = {}) =>
  Template.fromStack(
    // Skip esbuild bundling: these tests check the template, not the bundles.
    new GenericResourceServiceStack(cdkApp(), STACK_NAME, {
      region: 'europe-west1',
      cloudProvider: 'gcp',
      env: { account: '123456789012', region: 'eu-west-1' },
      ...props,
    }),
  );

let plain: Template;
let withEmail: Template;
beforeAll(() => {
  plain = synth();
  withEmail = synth({ alarmEmail: 'ops@example.com', concurrencyAlarmThreshold: 90 });
});

const alarms = (template: Template) => Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm: any) => alarm.Properties);

/** The alarm whose metric (or one metric of its expression) is `metricName` in `namespace`. */
function alarmOn(template: Template, namespace: string, metricName: string) {
  const found = alarms(template).filter((alarm) => {
    const metrics = alarm.Metrics ? alarm.Metrics.flatMap((query: any) => (query.MetricStat ? [query.MetricStat.Metric] : [])) : [alarm];
    return metrics.some((metric: any) => metric.Namespace === namespace && metric.MetricName === metricName);
  });
  expect(found, `one alarm on ${namespace} ${metricName}`).toHaveLength(1);
  return found[0];
}

describe('alarms', () => {
  it('watch the API: 5xx as a share of requests, and p99 latency, each over 3 periods of 5 minutes', () => {
    const rate = alarmOn(plain, 'AWS/ApiGateway', '5xx');
    expect(rate.Metrics.find((query: any) => query.Expression)?.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    expect(rate.Metrics.some((query: any) => query.MetricStat?.Metric.MetricName === 'Count')).toBe(true);
    expect(rate).toMatchObject({ Threshold: ALARM_THRESHOLDS.api5xxPercent, EvaluationPeriods: 3, ComparisonOperator: 'GreaterThanThreshold' });

    const latency = alarmOn(plain, 'AWS/ApiGateway', 'Latency');
    expect(latency).toMatchObject({ Threshold: ALARM_THRESHOLDS.apiP99LatencyMs, EvaluationPeriods: 3 });
    expect(latency.Metrics[0].MetricStat).toEqual({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Latency', Dimensions: [{ Name: 'ApiId', Value: { Ref: expect.stringMatching(/^Api/) } }] },
      Period: 300,
      Stat: 'p99',
    });
  });

  it('watch Lambda errors, throttles and concurrency (of the account and region)', () => {
    expect(alarmOn(plain, 'AWS/Lambda', 'Errors')).toMatchObject({ Statistic: 'Sum', Threshold: ALARM_THRESHOLDS.lambdaErrors });
    // "Any": above 0, so a single throttle fires.
    expect(alarmOn(plain, 'AWS/Lambda', 'Throttles')).toMatchObject({ Statistic: 'Sum', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(alarmOn(plain, 'AWS/Lambda', 'ConcurrentExecutions')).toMatchObject({ Statistic: 'Maximum', Threshold: 800 });
    expect(alarmOn(withEmail, 'AWS/Lambda', 'ConcurrentExecutions').Threshold).toBe(90);
  });

  it('watch the table: throttled reads and writes, and system errors of every operation the stores use', () => {
    const throttles = alarmOn(plain, 'AWS/DynamoDB', 'ReadThrottleEvents');
    expect(throttles.Metrics.map((query: any) => query.MetricStat?.Metric.MetricName).filter(Boolean).sort()).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents']);
    const systemErrors = alarmOn(plain, 'AWS/DynamoDB', 'SystemErrors');
    const operations = systemErrors.Metrics.flatMap((query: any) => query.MetricStat?.Metric.Dimensions ?? []).filter((d: any) => d.Name === 'Operation').map((d: any) => d.Value);
    expect(operations.sort()).toEqual(['BatchGetItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'Scan', 'TransactWriteItems', 'UpdateItem']);
    // Sparse metrics: each operand filled with 0, so one event alone makes a value (and fires).
    for (const alarm of [throttles, systemErrors]) {
      const expression = alarm.Metrics.find((query: any) => query.Expression).Expression as string;
      const operands = alarm.Metrics.filter((query: any) => query.MetricStat).map((query: any) => query.Id);
      expect(expression.split(' + ').sort()).toEqual(operands.map((id: string) => `FILL(${id}, 0)`).sort());
      expect(alarm).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    }
  });

  it('count authorizer refusals from its log lines, and alarm on a burst of them', () => {
    plain.hasResourceProperties('AWS::Logs::MetricFilter', {
      FilterPattern: `{ $.msg = "${AUTHORIZER_REFUSAL_MESSAGE}*" }`,
      LogGroupName: { Ref: Match.stringLikeRegexp('^AuthorizerLogs') },
      MetricTransformations: [{ MetricNamespace: METRICS_NAMESPACE, MetricName: 'AuthorizerRefusals', MetricValue: '1' }],
    });
    expect(alarmOn(plain, METRICS_NAMESPACE, 'AuthorizerRefusals')).toMatchObject({ Statistic: 'Sum', Threshold: ALARM_THRESHOLDS.authorizerRefusals });
  });

  it('alarm on a burst of token endpoint failures (the 4xx of its request lines)', () => {
    const alarm = alarmOn(plain, METRICS_NAMESPACE, 'ClientErrors');
    expect(alarm.Dimensions).toEqual([{ Name: 'route', Value: 'POST /oauth/token' }]);
    expect(alarm.Threshold).toBe(ALARM_THRESHOLDS.tokenFailures);
  });

  it('watch only metrics that exist: AWS\'s own, or one a metric filter of the stack publishes with those dimensions', () => {
    const filters = Object.values(plain.findResources('AWS::Logs::MetricFilter')).flatMap((filter: any) => filter.Properties.MetricTransformations);
    const published = (name: string, dimensions: string[]) =>
      filters.some(
        (metric: any) =>
          metric.MetricNamespace === METRICS_NAMESPACE &&
          metric.MetricName === name &&
          JSON.stringify((metric.Dimensions ?? []).map((d: any) => d.Key).sort()) === JSON.stringify([...dimensions].sort()),
      );
    for (const alarm of alarms(plain)) {
      const metrics = alarm.Metrics ? alarm.Metrics.flatMap((query: any) => (query.MetricStat ? [query.MetricStat.Metric] : [])) : [alarm];
      for (const metric of metrics) {
        if (metric.Namespace.startsWith('AWS/')) continue;
        expect(published(metric.MetricName, (metric.Dimensions ?? []).map((d: any) => d.Name)), `${alarm.AlarmDescription}`).toBe(true);
      }
    }
  });
});

describe('request metrics from the functions\' request lines', () => {
  const requestFunctions = [...endpoints, fallback].map((declaration) => declaration.name.split('-').map((word) => word[0]!.toUpperCase() + word.slice(1)).join(''));

  it('every endpoint function\'s log group has the Latency, ClientErrors, ServerErrors and QueryTimedOut filters, per route', () => {
    const filters = Object.values(plain.findResources('AWS::Logs::MetricFilter')).map((filter: any) => filter.Properties);
    for (const fn of requestFunctions) {
      const own = filters.filter((filter) => new RegExp(`^${fn}Logs[0-9A-F]{8}$`).test(filter.LogGroupName.Ref) && filter.MetricTransformations[0].MetricName !== 'SearchUnavailable');
      expect(own.map((filter) => filter.MetricTransformations[0].MetricName).sort(), fn).toEqual(Object.keys(REQUEST_METRICS).sort());
      for (const filter of own) {
        expect(filter.MetricTransformations[0]).toMatchObject({ MetricNamespace: METRICS_NAMESPACE, Dimensions: [{ Key: 'route', Value: '$.route' }] });
      }
    }
    // The authorizer writes no request line: only its refusals are counted.
    expect(filters.filter((filter) => /^AuthorizerLogs/.test(filter.LogGroupName.Ref)).map((filter) => filter.MetricTransformations[0].MetricName)).toEqual(['AuthorizerRefusals']);
    // The change stream's consumer: its failed deliveries and dead letters.
    expect(filters.filter((filter) => /^DeliverChangesLogs/.test(filter.LogGroupName.Ref)).map((filter) => filter.MetricTransformations[0].MetricName).sort()).toEqual(['DeadLetters', 'DeliveryFailures']);
    // Search's 503s, for its own alarm (test/infra/search-engine.test.ts).
    expect(filters.filter((filter) => filter.MetricTransformations[0].MetricName === 'SearchUnavailable').map((filter) => filter.LogGroupName.Ref)).toEqual([
      expect.stringMatching(/^SearchResourcesLogs/),
    ]);
    expect(filters).toHaveLength(requestFunctions.length * Object.keys(REQUEST_METRICS).length + 4);
  });

  it('read the request line\'s fields: latency from `ms`, errors from `status`, queries past the budget from `code`', () => {
    const byName = Object.fromEntries(
      Object.values(plain.findResources('AWS::Logs::MetricFilter'))
        .map((filter: any) => filter.Properties)
        .filter((filter) => filter.LogGroupName.Ref.startsWith('GetResourceLogs'))
        .map((filter) => [filter.MetricTransformations[0].MetricName, filter]),
    );
    expect(byName.Latency).toMatchObject({ FilterPattern: '{ $.ms >= 0 }', MetricTransformations: [{ MetricValue: '$.ms', Unit: 'Milliseconds' }] });
    expect(byName.ClientErrors).toMatchObject({ FilterPattern: '{ ($.status >= 400) && ($.status < 500) }', MetricTransformations: [{ MetricValue: '1', Unit: 'Count' }] });
    expect(byName.ServerErrors).toMatchObject({ FilterPattern: '{ $.status >= 500 }', MetricTransformations: [{ MetricValue: '1', Unit: 'Count' }] });
    expect(byName.QueryTimedOut).toMatchObject({ FilterPattern: '{ $.code = "QueryTimedOut" }', MetricTransformations: [{ MetricValue: '1', Unit: 'Count' }] });
  });
});

describe('the filters and the lines they read', () => {
  /** The line the logger writes (shared/observability/logger.ts), as CloudWatch Logs receives it. */
  const written = (log: () => void) => {
    let line = '';
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      line += String(chunk);
      return true;
    });
    log();
    write.mockRestore();
    return JSON.parse(line);
  };

  it('every field a request filter compares, publishes or uses as a dimension is in the request line, numbers as numbers', () => {
    const line = written(() =>
      logger.requestLine({ route: 'GET /{projectKey}/resource/{id}', status: 503, ms: 12, project: 'demo', clientId: 'c', correlationId: 'x', code: 'OverCapacity' }),
    );
    const filters = Object.values(plain.findResources('AWS::Logs::MetricFilter'))
      .map((filter: any) => filter.Properties)
      .filter((filter) => !['AuthorizerRefusals', 'DeadLetters', 'DeliveryFailures', 'SearchUnavailable'].includes(filter.MetricTransformations[0].MetricName));
    for (const filter of filters) {
      for (const [, field] of filter.FilterPattern.matchAll(/\$\.(\w+) [<>=]+ \d+/g)) expect(typeof line[field], field).toBe('number');
      for (const [, field] of filter.FilterPattern.matchAll(/\$\.(\w+) = "/g)) expect(typeof line[field], field).toBe('string');
      const [transformation] = filter.MetricTransformations;
      if (transformation.MetricValue.startsWith('$.')) expect(typeof line[transformation.MetricValue.slice(2)]).toBe('number');
      for (const dimension of transformation.Dimensions) expect(line[dimension.Value.slice(2)]).toBe('GET /{projectKey}/resource/{id}');
    }
    // A 503 line counts as a server error and not as a client error (the patterns' bounds).
    expect(line.status >= 500 && !(line.status >= 400 && line.status < 500)).toBe(true);
  });

  it('warnings and errors have neither status nor ms, so they never count as requests', () => {
    for (const log of [() => logger.warn('careful'), () => logger.error('failed', { error: new Error('x') })]) {
      const line = written(log);
      expect(line).not.toHaveProperty('status');
      expect(line).not.toHaveProperty('ms');
    }
  });
});

describe('alarm count', () => {
  it('use 29 metrics in all, the count README.md prices ($0.10 each a month)', () => {
    const metrics = alarms(plain).reduce((count, alarm) => count + (alarm.Metrics ? alarm.Metrics.filter((query: any) => query.MetricStat).length : 1), 0);
    expect(metrics).toBe(29);
  });

  it('treat no data as no incident (an idle service), and explain themselves', () => {
    expect(alarms(plain)).toHaveLength(18);
    for (const alarm of alarms(plain)) {
      expect(alarm.TreatMissingData).toBe('notBreaching');
      expect(alarm.AlarmDescription).toMatch(/README\.md, "Alarms"/);
    }
  });
});

describe('notification', () => {
  it('without -c alarmEmail: no topic, alarms without actions', () => {
    plain.resourceCountIs('AWS::SNS::Topic', 0);
    for (const alarm of alarms(plain)) expect(alarm.AlarmActions).toBeUndefined();
  });

  it('with -c alarmEmail: an SNS topic (TLS only) with that e-mail, notified when each alarm fires and clears', () => {
    withEmail.resourceCountIs('AWS::SNS::Topic', 1);
    withEmail.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    withEmail.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    // That policy replaces SNS's default one: CloudWatch must be let publish, for this account's alarms only.
    withEmail.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: { StringEquals: { 'aws:SourceAccount': Match.anyValue() }, ArnLike: { 'aws:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
    const topic = Object.keys(withEmail.findResources('AWS::SNS::Topic'))[0];
    for (const alarm of alarms(withEmail)) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topic }]);
      expect(alarm.OKActions).toEqual([{ Ref: topic }]);
    }
  });
});

describe('dashboard', () => {
  it('shows the alarms\' metrics, and Lambda errors per function', () => {
    const [dashboard] = Object.values(plain.findResources('AWS::CloudWatch::Dashboard')) as any[];
    // Dashboard names are global to the account: the AWS region keeps two regions' stacks apart.
    expect(JSON.stringify(dashboard.Properties.DashboardName)).toMatch(/GenericResourceService-europe-west1-gcp-.*(AWS::Region|eu-|us-)/);
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const metric of ['5xx', 'Latency', 'ConcurrentExecutions', 'ReadThrottleEvents', 'SystemErrors', 'AuthorizerRefusals', 'ClientErrors']) {
      expect(body).toContain(metric);
    }
    // Per route, from the request lines' metrics.
    for (const metric of Object.keys(REQUEST_METRICS)) expect(body).toMatch(new RegExp(`SEARCH\\('\\{[\\\\]*"${METRICS_NAMESPACE}[\\\\]*",route\\} MetricName=[\\\\]*"${metric}[\\\\]*"'`));
    // The service's functions, not the deploy-time ones (the search database users, the index migrations, the default security group).
    const deployTime = [AWS_CUSTOM_RESOURCE_FUNCTION_ID, 'SearchIndexMigrationsframework', 'CustomVpcRestrictDefaultSG'];
    const functions = Object.keys(plain.findResources('AWS::Lambda::Function')).filter((id) => !deployTime.some((prefix) => id.startsWith(prefix)));
    for (const fn of functions) expect(body, fn).toContain(fn);
  });
});

describe('refusals per client, from the API\'s access log', () => {
  const query = REFUSALS_PER_CLIENT_QUERY.toString();

  it('counts 401, 403, 413 and 429 per status, client id, source IP and route', () => {
    expect(query).toMatch(/filter s in \["401", "403", "413", "429"\]/);
    expect(query).toMatch(/stats count\(\*\) as requests by s, c, ip, r/);
  });

  it('is a saved Logs Insights query on the access log, and a widget of the dashboard', () => {
    plain.hasResourceProperties('AWS::Logs::QueryDefinition', {
      Name: `${STACK_NAME}/refusals-per-client`,
      QueryString: query,
      LogGroupNames: [{ Ref: Match.stringLikeRegexp('^ApiAccessLogs') }],
    });
    const [dashboard] = Object.values(plain.findResources('AWS::CloudWatch::Dashboard')) as any[];
    // The body is JSON joined around the log group's name: `..."query":"SOURCE '<access log>' | <query>"...`.
    const parts = dashboard.Properties.DashboardBody['Fn::Join'][1] as any[];
    const at = parts.findIndex((part) => /^ApiAccessLogs/.test(part?.Ref ?? ''));
    expect(parts.join('')).toMatch(/"type":"log","width":24,"height":6,"x":0,"y":\d+,"properties":\{"view":"table","title":"Refusals per client/);
    expect(parts[at - 1]).toMatch(/"query":"SOURCE '$/);
    expect(parts[at + 1]).toContain(`' | ${JSON.stringify(query).slice(1, -1)}`);
  });

  it('is not there when the deployment turns the access log off', () => {
    expect(synth({ accessLog: false }).findResources('AWS::Logs::QueryDefinition')).toEqual({});
  });
});
