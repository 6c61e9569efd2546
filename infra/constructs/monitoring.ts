import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  LogQueryWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  Unit,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { DatabaseCluster } from 'aws-cdk-lib/aws-rds';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { FilterPattern, MetricFilter, QueryDefinition, QueryString, type IFilterPattern, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { AUTHORIZER_REFUSAL_MESSAGE } from '../../shared/auth/authorizer-settings';
import { DEAD_LETTER_MESSAGE, DELIVERY_FAILED_MESSAGE } from '../../shared/services/subscription-delivery';
import { searchResources } from '../../functions/search-resources/endpoint';
import { routeKey } from '../../shared/http/declaration';
import type { SearchConnectionBudget } from '../search-connection-budget';

/**
 * The namespace of a stack's own metrics, all derived from log lines by metric filters: the stack's
 * name, so that two pairings in one account and region never count each other's requests.
 */
export const metricsNamespaceOf = (stackName: string) => stackName;

/**
 * The metrics derived from every request line (shared/observability/logger.ts `requestLine`:
 * `{"level":"INFO","route":…,"status":…,"ms":…,…}`), each per `route`. Only request lines have
 * `status` and `ms`; warnings, errors and the authorizer's refusals have neither.
 */
export const REQUEST_METRICS = {
  /** The request's latency in the function; its sample count is the request count. */
  Latency: { pattern: FilterPattern.numberValue('$.ms', '>=', 0), value: '$.ms', unit: Unit.MILLISECONDS },
  ClientErrors: { pattern: FilterPattern.all(FilterPattern.numberValue('$.status', '>=', 400), FilterPattern.numberValue('$.status', '<', 500)), value: '1', unit: Unit.COUNT },
  ServerErrors: { pattern: FilterPattern.numberValue('$.status', '>=', 500), value: '1', unit: Unit.COUNT },
  /**
   * Queries and searches past the query budget (400 `QueryTimedOut`): a project outgrowing what
   * its requests narrow (README.md, "Large projects"). Only the query and search routes publish it.
   */
  QueryTimedOut: { pattern: FilterPattern.stringValue('$.code', '=', 'QueryTimedOut'), value: '1', unit: Unit.COUNT },
} as const;

/**
 * The refusals a client meets, from the API's access log (infra/stack.ts, API_ACCESS_LOG_FORMAT):
 * 429 throttled and 413 too large (the gateway's own, before any function), 401 and 403 (the
 * functions', on the authorizer's verdict), counted per status, client id (`-` when no token was
 * accepted), source IP and route.
 */
export const REFUSALS_PER_CLIENT_QUERY = new QueryString({
  filterStatements: ['s in ["401", "403", "413", "429"]'],
  statsStatements: ['count(*) as requests by s, c, ip, r'],
  sort: 'requests desc',
  limit: 100,
});

/** The failures bucket's request metrics (infra/stack.ts), for the whole bucket. */
export const SEARCH_FAILURES_METRICS_FILTER = 'EntireBucket';
const SEARCH_ROUTE = routeKey(searchResources.routes[0]);

/** What each alarm fires on. README.md ("Alarms") says what each means and what to do. */
export const ALARM_THRESHOLDS = {
  /** Percent of requests answered 5xx, over each of 3 consecutive 5-minute periods. */
  api5xxPercent: 1,
  /** p99 of the API's latency in ms, over each of 3 consecutive 5-minute periods. */
  apiP99LatencyMs: 2000,
  /** Lambda function errors (crashes, timeouts) in 5 minutes. */
  lambdaErrors: 5,
  /** Throttled Lambda invocations in 5 minutes: any (the alarms fire above the threshold). */
  lambdaThrottles: 0,
  /** DynamoDB throttle events (reads plus writes) in 5 minutes: any. */
  dynamoDbThrottles: 0,
  /** DynamoDB system errors (HTTP 500 of DynamoDB itself) in 5 minutes: any. */
  dynamoDbSystemErrors: 0,
  /** Tokens the authorizer refused in 5 minutes. */
  authorizerRefusals: 200,
  /** Failed requests (4xx) at the token endpoint in 5 minutes: secrets being guessed, or a client with a stale secret. */
  tokenFailures: 50,
  /** Failed subscription deliveries (each attempt) in 5 minutes: a destination down or refusing. */
  deliveryFailures: 50,
  /** Notifications given up on (dead letters) or stream batches the consumer could not handle, in 5 minutes: any. */
  lostNotifications: 0,
  /** Age in ms of the oldest stream record not yet consumed, over each of 3 consecutive 5-minute periods. */
  streamIteratorAgeMs: 60_000,
  /** Stream records set aside by the search indexer or its mapping (objects put in the failures bucket) in 5 minutes: any. */
  searchIndexRecordsSetAside: 0,
  /** Age in ms of the oldest stream record the search indexer has not applied, over each of 3 consecutive 5-minute periods. */
  searchIndexIteratorAgeMs: 60_000,
  /** Percent of searches answered 503 (the engine did not answer), over each of 3 consecutive 5-minute periods: longer than a resume. */
  searchUnavailablePercent: 5,
  /** The cluster's connections, percent of what the search and indexer users may hold together. */
  searchConnectionsPercent: 80,
  /** The cluster's capacity, percent of its maximum, over each of 3 consecutive 5-minute periods. */
  searchCapacityPercent: 90,
  /** The cluster's unused memory at its maximum capacity, percent of that capacity's memory (2 GiB per ACU), over each of 3 consecutive 5-minute periods. */
  searchFreeMemoryPercent: 10,
} as const;

export interface MonitoringProps {
  api: IHttpApi;
  table: ITableV2;
  /** The functions behind the routes, shown per function on the dashboard. */
  functions: readonly IFunction[];
  /** The authorizer's log group: its refusal lines become the AuthorizerRefusals metric. */
  authorizerLogGroup: ILogGroup;
  /** The API's access log, when the deployment keeps one: the refusals per client are queried from it. */
  accessLogGroup?: ILogGroup;
  /** The log groups of the functions that write request lines: each gets the REQUEST_METRICS filters. */
  requestLogGroups: readonly ILogGroup[];
  /** The Lambda concurrency (account and region) above which to alarm; default 800 of the default quota of 1000. */
  concurrencyThreshold?: number;
  /** Where alarms are sent (an SNS topic with this e-mail subscribed); without it alarms only show in CloudWatch. */
  alarmEmail?: string;
  /** The table stream's consumer, its log group and the queue of the batches it failed. */
  changeConsumer?: { fn: IFunction; logGroup: ILogGroup; failedBatches: IQueue };
  /** Search: its cluster and connection budget, the indexer, the bucket of what it set aside, search's own log group. */
  search?: { cluster: DatabaseCluster; budget: SearchConnectionBudget; maxCapacity: number; indexer: IFunction; failures: IBucket; searchLogGroup: ILogGroup };
  /** The stack's name, e.g. `GenericResourceService-europe-west1-gcp`: names the dashboard and the metrics' namespace. */
  stackName: string;
}

/**
 * What an operator watches: one alarm per failure that needs a person, a dashboard of the same
 * metrics, and (with an e-mail) an SNS topic the alarms notify. Lambda's errors, throttles and
 * concurrency are the account's in this region (unfiltered metrics): an alarm per function would
 * cost $0.10 per function and metric each month, and the dashboard shows the functions apart.
 */
export class Monitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic?: Topic;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const namespace = metricsNamespaceOf(props.stackName);

    const requests = props.api.metricCount({ period, statistic: 'Sum' });
    const serverErrors = props.api.metricServerError({ period, statistic: 'Sum' });
    const serverErrorPercent = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { errors: serverErrors, requests },
      period,
      label: 'API 5xx (% of requests)',
    });
    // API Gateway's own latency, not the request lines' Latency: CloudWatch computes percentiles of
    // metric-filter metrics too, but this one is what clients see (authorizer, gateway and requests
    // refused before any function included), for all routes in one metric.
    const p99Latency = props.api.metricLatency({ period, statistic: 'p99', label: 'API latency p99 (ms)' });
    // Per route, from the request lines (dashboard only: alarms cannot use SEARCH).
    const perRoute = (metricName: keyof typeof REQUEST_METRICS, statistic: string, label: string) =>
      new MathExpression({ expression: `SEARCH('{"${namespace}",route} MetricName="${metricName}"', '${statistic}', 300)`, period, label });

    const lambda = (metricName: string, statistic: string) => new Metric({ namespace: 'AWS/Lambda', metricName, statistic, period });
    const lambdaErrors = lambda('Errors', 'Sum');
    const lambdaThrottles = lambda('Throttles', 'Sum');
    const concurrency = lambda('ConcurrentExecutions', 'Maximum');

    // DynamoDB publishes these only when there is something to count, and an expression over a
    // missing value has none: each operand is filled with 0, so one read throttle alone fires.
    const dynamoDbThrottles = new MathExpression({
      expression: 'FILL(reads, 0) + FILL(writes, 0)',
      usingMetrics: {
        reads: props.table.metric('ReadThrottleEvents', { period, statistic: 'Sum' }),
        writes: props.table.metric('WriteThrottleEvents', { period, statistic: 'Sum' }),
      },
      period,
      label: 'DynamoDB throttle events',
    });
    // The operations the stores send (shared/store/dynamodb/: Scan lists clients and bindings for the CLIs).
    const operations = [Operation.GET_ITEM, Operation.BATCH_GET_ITEM, Operation.PUT_ITEM, Operation.UPDATE_ITEM, Operation.DELETE_ITEM, Operation.QUERY, Operation.SCAN, Operation.TRANSACT_WRITE_ITEMS];
    const systemErrorsOf = Object.fromEntries(
      operations.map((operation, index) => [`e${index}`, props.table.metric('SystemErrors', { dimensionsMap: { TableName: props.table.tableName, Operation: operation }, period, statistic: 'Sum' })]),
    );
    const systemErrorsSum = Object.keys(systemErrorsOf).map((name) => `FILL(${name}, 0)`).join(' + ');
    const dynamoDbSystemErrors = new MathExpression({ expression: systemErrorsSum, usingMetrics: systemErrorsOf, period, label: 'DynamoDB system errors' });

    // Metric filters cost nothing; the metrics they publish are priced like any custom metric.
    for (const logGroup of props.requestLogGroups) {
      for (const [metricName, { pattern, value, unit }] of Object.entries(REQUEST_METRICS)) {
        const metric = { metricNamespace: namespace, metricName, metricValue: value, dimensions: { route: '$.route' }, unit };
        new MetricFilter(this, `${logGroup.node.id}${metricName}`, { logGroup, filterPattern: pattern, ...metric });
      }
    }
    const countLines: CountLines = (metricName, logGroup, filterPattern) => {
      new MetricFilter(this, `${metricName}Filter`, { logGroup, filterPattern, metricNamespace: namespace, metricName, metricValue: '1' });
      return new Metric({ namespace, metricName, statistic: 'Sum', period });
    };
    // The authorizer logs each refusal at INFO as `token refused: <reason>` (functions/authorizer/handler.ts).
    const authorizerRefusals = countLines('AuthorizerRefusals', props.authorizerLogGroup, FilterPattern.stringValue('$.msg', '=', `${AUTHORIZER_REFUSAL_MESSAGE}*`));
    // The request lines' 4xx of the token route (REQUEST_METRICS).
    const tokenFailures = new Metric({ namespace, metricName: 'ClientErrors', dimensionsMap: { route: 'POST /oauth/token' }, statistic: 'Sum', period });

    const alarm = (name: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1, below = false) =>
      this.alarms.push(
        new Alarm(this, name, {
          alarmDescription: `${description} See README.md, "Alarms".`,
          metric,
          threshold,
          evaluationPeriods,
          comparisonOperator: below ? ComparisonOperator.LESS_THAN_THRESHOLD : ComparisonOperator.GREATER_THAN_THRESHOLD,
          // No traffic is not an incident: the service idles at no cost.
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    alarm('Api5xxRate', serverErrorPercent, ALARM_THRESHOLDS.api5xxPercent, 'More than 1% of API requests answered 5xx for 15 minutes.', 3);
    alarm('ApiLatencyP99', p99Latency, ALARM_THRESHOLDS.apiP99LatencyMs, 'API p99 latency above 2 s for 15 minutes.', 3);
    alarm('LambdaErrors', lambdaErrors, ALARM_THRESHOLDS.lambdaErrors, 'Lambda functions (this account and region) crashed or timed out.');
    alarm('LambdaThrottles', lambdaThrottles, ALARM_THRESHOLDS.lambdaThrottles, 'Lambda invocations (this account and region) were throttled.');
    alarm('LambdaConcurrency', concurrency, props.concurrencyThreshold ?? 800, 'Lambda concurrency (this account and region) is close to its quota.');
    alarm('DynamoDbThrottles', dynamoDbThrottles, ALARM_THRESHOLDS.dynamoDbThrottles, 'DynamoDB throttled requests to the table.');
    alarm('DynamoDbSystemErrors', dynamoDbSystemErrors, ALARM_THRESHOLDS.dynamoDbSystemErrors, 'DynamoDB answered system errors (its own 500s).');
    alarm('AuthorizerRefusals', authorizerRefusals, ALARM_THRESHOLDS.authorizerRefusals, 'Many tokens refused by the authorizer in 5 minutes.');
    alarm('TokenEndpointFailures', tokenFailures, ALARM_THRESHOLDS.tokenFailures, 'A burst of failed requests at POST /oauth/token.');

    if (props.changeConsumer) {
      const { fn, logGroup, failedBatches } = props.changeConsumer;
      const countMsg = (metricName: string, msg: string) => countLines(metricName, logGroup, FilterPattern.stringValue('$.msg', '=', msg));
      const lost = new MathExpression({
        expression: 'FILL(dead, 0) + FILL(batches, 0)',
        usingMetrics: { dead: countMsg('DeadLetters', DEAD_LETTER_MESSAGE), batches: failedBatches.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }) },
        period,
        label: 'Notifications lost to the normal path',
      });
      alarm('SubscriptionDeliveryFailures', countMsg('DeliveryFailures', DELIVERY_FAILED_MESSAGE), ALARM_THRESHOLDS.deliveryFailures, 'Many subscription deliveries failed in 5 minutes.');
      alarm('SubscriptionNotificationsLost', lost, ALARM_THRESHOLDS.lostNotifications, 'Notifications became dead letters, or stream batches failed.');
      alarm('ChangeStreamIteratorAge', fn.metric('IteratorAge', { period, statistic: 'Maximum' }), ALARM_THRESHOLDS.streamIteratorAgeMs, 'The change stream is read more than a minute late.', 3);
    }

    const search = props.search && searchMetrics(props.search, countLines, namespace, period);
    if (search && props.search) {
      const { budget, maxCapacity } = props.search;
      alarm('SearchIndexRecordsSetAside', search.setAside, ALARM_THRESHOLDS.searchIndexRecordsSetAside, 'Stream records the search indexer could not index were set aside: those changes are missing from search.');
      alarm('SearchIndexIteratorAge', search.iteratorAge, ALARM_THRESHOLDS.searchIndexIteratorAgeMs, 'The search index is more than a minute behind the table.', 3);
      alarm('SearchUnavailable', search.unavailablePercent, ALARM_THRESHOLDS.searchUnavailablePercent, 'More than 5% of searches answered 503 for 15 minutes: the search engine does not answer.', 3);
      const connectionsThreshold = Math.floor(((budget.search + budget.indexer) * ALARM_THRESHOLDS.searchConnectionsPercent) / 100);
      alarm('SearchClusterConnections', search.connections, connectionsThreshold, 'The search cluster holds most of the connections its users may open.');
      alarm('SearchClusterCapacity', search.capacityPercent, ALARM_THRESHOLDS.searchCapacityPercent, 'The search cluster runs at its maximum capacity.', 3);
      const freeMemoryThreshold = (maxCapacity * 2 * 1024 ** 3 * ALARM_THRESHOLDS.searchFreeMemoryPercent) / 100;
      alarm('SearchClusterMemory', search.freeMemory, freeMemoryThreshold, 'The search cluster is short of memory at its maximum capacity.', 3, true);
    }

    if (props.alarmEmail) {
      this.topic = new Topic(this, 'AlarmTopic', { displayName: `Alarms of ${props.stackName}`, enforceSSL: true });
      // enforceSSL gives the topic a policy of its own, which replaces SNS's default one: without
      // this statement CloudWatch may not publish to it, and no alarm would ever reach the e-mail.
      const { account, partition, region } = Stack.of(this);
      this.topic.addToResourcePolicy(
        new PolicyStatement({
          principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [this.topic.topicArn],
          conditions: {
            StringEquals: { 'aws:SourceAccount': account },
            ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
          },
        }),
      );
      this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
      Validations.of(this.topic).acknowledge({
        id: 'AwsSolutions-SNS2',
        reason: 'The topic carries alarm state changes only (no data); CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a customer key costs $1/month against nothing-at-idle.',
      });
      const action = new SnsAction(this.topic);
      for (const each of this.alarms) {
        each.addAlarmAction(action);
        each.addOkAction(action);
      }
    }

    const perFunction = (metricName: string, statistic: string) =>
      props.functions.map((fn) => fn.metric(metricName, { period, statistic, label: fn.node.id }));
    const graph = (title: string, left: IMetric[], width = 8) => new GraphWidget({ title, left, width, height: 6 });
    const dashboard = new Dashboard(this, 'Dashboard', {
      // Dashboard names are global to the account: the same stack in another region gets its own.
      dashboardName: `${props.stackName}-${Stack.of(this).region}`,
      widgets: [
        [new TextWidget({ markdown: `# ${props.stackName}\nAlarms and what to do: README.md, "Alarms".`, width: 24, height: 2 })],
        [
          graph('API requests and 5xx', [requests, serverErrors]),
          graph('API 5xx (% of requests)', [serverErrorPercent]),
          graph('API latency', [props.api.metricLatency({ period, statistic: 'p50' }), p99Latency]),
        ],
        [
          graph('Lambda errors per function', perFunction('Errors', 'Sum')),
          graph('Lambda throttles per function', perFunction('Throttles', 'Sum')),
          graph('Lambda concurrency (account)', [concurrency]),
        ],
        [
          graph('Function latency p99 per route (ms)', [perRoute('Latency', 'p99', 'p99')]),
          graph('4xx per route', [perRoute('ClientErrors', 'Sum', '4xx')]),
          graph('5xx per route', [perRoute('ServerErrors', 'Sum', '5xx')]),
        ],
        [
          graph('DynamoDB throttles and system errors', [dynamoDbThrottles, dynamoDbSystemErrors]),
          graph('Authorizer refusals', [authorizerRefusals]),
          graph('Token endpoint 4xx', [tokenFailures]),
        ],
        [graph('Queries past the budget (400 QueryTimedOut) per route', [perRoute('QueryTimedOut', 'Sum', 'QueryTimedOut')], 24)],
      ],
    });
    if (search) {
      dashboard.addWidgets(graph('Search: 503 (% of searches)', [search.unavailablePercent]), graph('Search index: records set aside', [search.setAside]), graph('Search index: iterator age (ms)', [search.iteratorAge]));
      dashboard.addWidgets(graph('Search cluster: connections', [search.connections]), graph('Search cluster: capacity (% of maximum)', [search.capacityPercent]), graph('Search cluster: free memory at maximum (bytes)', [search.freeMemory]));
    }
    if (props.accessLogGroup) {
      const queryString = REFUSALS_PER_CLIENT_QUERY.toString();
      dashboard.addWidgets(
        new LogQueryWidget({ title: 'Refusals per client (access log)', logGroupNames: [props.accessLogGroup.logGroupName], queryString, width: 24, height: 6 }),
      );
      // The same query, saved in Logs Insights for any time range.
      new QueryDefinition(this, 'RefusalsPerClient', {
        queryDefinitionName: `${props.stackName}/refusals-per-client`,
        queryString: REFUSALS_PER_CLIENT_QUERY,
        logGroups: [props.accessLogGroup],
      });
    }
  }
}

/** The log lines `filterPattern` matches in a log group, counted in the metric `metricName`. */
type CountLines = (metricName: string, logGroup: ILogGroup, filterPattern: IFilterPattern) => Metric;

/**
 * What search's alarms and graphs watch: the requests search answered 503 (its request lines), the
 * objects put in the failures bucket (S3 request metrics, which count the indexer's own and its
 * mapping's alike), the indexer's lag, and the cluster's connections, capacity and memory.
 */
function searchMetrics(search: NonNullable<MonitoringProps['search']>, countLines: CountLines, namespace: string, period: Duration) {
  const unavailable = countLines('SearchUnavailable', search.searchLogGroup, FilterPattern.numberValue('$.status', '=', 503));
  const searches = new Metric({ namespace, metricName: 'Latency', dimensionsMap: { route: SEARCH_ROUTE }, statistic: 'SampleCount', period });
  const cluster = (metricName: string, statistic: string) => search.cluster.metric(metricName, { period, statistic });
  return {
    unavailablePercent: new MathExpression({
      expression: 'IF(searches > 0, 100 * FILL(unavailable, 0) / searches, 0)',
      usingMetrics: { unavailable, searches },
      period,
      label: 'Search 503 (% of searches)',
    }),
    setAside: new Metric({ namespace: 'AWS/S3', metricName: 'PutRequests', dimensionsMap: { BucketName: search.failures.bucketName, FilterId: SEARCH_FAILURES_METRICS_FILTER }, statistic: 'Sum', period }),
    iteratorAge: search.indexer.metric('IteratorAge', { period, statistic: 'Maximum' }),
    connections: cluster('DatabaseConnections', 'Maximum'),
    capacityPercent: cluster('ACUUtilization', 'Average'),
    freeMemory: cluster('FreeableMemory', 'Minimum'),
  };
}
