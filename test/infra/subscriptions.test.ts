import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '../../infra/constructs/monitoring';
import { GenericResourceServiceStack } from '../../infra/stack';
import { DEAD_LETTER_MESSAGE, DELIVERY_FAILED_MESSAGE } from '../../shared/services/subscription-delivery';
import { cdkApp } from '../support/cdk-app';

/** What subscriptions add to the stack: the table's stream, its consumer, its grants, its alarms. */
let template: Template;
beforeAll(() => {
  template = Template.fromStack(
    new GenericResourceServiceStack(cdkApp(), 'GenericResourceService-europe-west1-gcp', {
      region: 'europe-west1',
      cloudProvider: 'gcp',
      env: { account: '123456789012', region: 'eu-west-1' },
    }),
  );
});

const consumerPolicy = () =>
  Object.entries(template.findResources('AWS::IAM::Policy'))
    .filter(([id]) => id.startsWith('DeliverChangesServiceRoleDefaultPolicy'))
    .flatMap(([, policy]: [string, any]) => policy.Properties.PolicyDocument.Statement as any[]);

describe('the change stream', () => {
  it('is the table\'s stream of new and old images', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  });

  it('feeds the subscriptions\' consumer: resource items only, failures bisected and retried, then kept in a queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: Match.stringLikeRegexp('^DeliverChanges') },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ChangeStreamFailedBatches'), 'Arn'] } } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ dynamodb: { Keys: { sk: { S: [{ prefix: 'RESOURCE#' }] } } } }) }] },
    });
  });

  it('retries parked notifications every minute, with a function that may run that long', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^DeliverChanges'), 'Arn'] } })],
    });
    template.hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.handler', Timeout: 60 });
  });

  it('outputs the role teams name in their queue, topic or bus policies', () => {
    template.hasOutput('SubscriptionDeliveryRoleArn', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^DeliverChangesServiceRole'), 'Arn'] } });
  });
});

describe("the consumer's grants", () => {
  it('reads the stream, sends failed batches to its queue, and sends notifications (resources in other accounts: *)', () => {
    const statements = consumerPolicy();
    const onStream = statements.filter((statement) => JSON.stringify(statement.Resource).includes('StreamArn')).flatMap((statement) => [statement.Action].flat());
    expect(onStream.sort()).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
    const toQueue = statements.find((statement) => JSON.stringify(statement.Resource).includes('ChangeStreamFailedBatches'));
    expect([toQueue.Action].flat()).toContain('sqs:SendMessage');
    expect(statements.filter((statement) => statement.Resource === '*')).toEqual([
      { Effect: 'Allow', Action: ['events:PutEvents', 'sns:Publish', 'sqs:SendMessage'], Resource: '*' },
    ]);
  });
});

describe('alarms', () => {
  const alarmNamed = (prefix: string) =>
    Object.entries(template.findResources('AWS::CloudWatch::Alarm')).find(([id]) => id.includes(prefix))?.[1]?.Properties as any;

  it('fire on the stream read late, on failed deliveries, and on notifications lost to the normal path', () => {
    expect(alarmNamed('ChangeStreamIteratorAge')).toMatchObject({ MetricName: 'IteratorAge', Statistic: 'Maximum', Threshold: ALARM_THRESHOLDS.streamIteratorAgeMs, EvaluationPeriods: 3 });
    expect(alarmNamed('SubscriptionDeliveryFailures')).toMatchObject({ MetricName: 'DeliveryFailures', Threshold: ALARM_THRESHOLDS.deliveryFailures });
    const lost = alarmNamed('SubscriptionNotificationsLost');
    expect(lost.Threshold).toBe(0);
    expect(lost.Metrics.filter((query: any) => query.MetricStat).map((query: any) => query.MetricStat.Metric.MetricName).sort()).toEqual([
      'ApproximateNumberOfMessagesVisible',
      'DeadLetters',
    ]);
  });

  it('count the lines the consumer writes', () => {
    const patterns = Object.values(template.findResources('AWS::Logs::MetricFilter')).map((filter: any) => filter.Properties.FilterPattern);
    expect(patterns).toContain(`{ $.msg = "${DEAD_LETTER_MESSAGE}" }`);
    expect(patterns).toContain(`{ $.msg = "${DELIVERY_FAILED_MESSAGE}" }`);
  });
});
