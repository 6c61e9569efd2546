import { Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GenericResourceServiceStack, THROTTLE } from '../../infra/stack';
import { cdkApp } from '../support/cdk-app';

/**
 * cdk-nag's AWS Solutions pack on the whole stack: no finding may stand unacknowledged, and every
 * acknowledgement carries its reason in the stack code (docs/security.md lists them).
 *
 * cdk-nag 3 is a CDK policy-validation plugin (`Validations.of(...).acknowledge` replaces v2's
 * NagSuppressions); `validateScope` runs the pack on the construct tree directly.
 */

function synthesize(env?: { account: string; region: string }) {
  // Skip esbuild bundling: the checks read the template, not the bundles.
  const app = cdkApp();
  const stack = new GenericResourceServiceStack(app, 'GenericResourceService-europe-west1-gcp', {
    region: 'europe-west1',
    cloudProvider: 'gcp',
    env,
  });
  return { app, stack };
}

const describeViolations = (report: ReturnType<AwsSolutionsChecks['validateScope']>) =>
  report.violations.map((violation) => `${violation.severity} ${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`);

describe('cdk-nag AwsSolutions', () => {
  it.each([
    ['with an account and region', { account: '123456789012', region: 'eu-west-1' }],
    ['environment-agnostic', undefined],
  ])('finds no unacknowledged error or warning (%s)', (_, env) => {
    const { app, stack } = synthesize(env);
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    expect(describeViolations(report)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('gives every acknowledgement a specific reason', () => {
    const { stack } = synthesize({ account: '123456789012', region: 'eu-west-1' });
    const acknowledgements: { path: string; id: string; reason: string }[] = [];
    const walk = (node: IConstruct) => {
      for (const entry of node.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) acknowledgements.push({ path: node.node.path, id, reason });
      }
      node.node.children.forEach(walk);
    };
    walk(stack);
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const { path, id, reason } of acknowledgements) {
      expect(id, path).toMatch(/AwsSolutions-[A-Z]+\d+/);
      expect(reason.length, `${id} on ${path}`).toBeGreaterThanOrEqual(60);
    }
    // Nothing is waved through for the whole stack: acknowledgements sit on the resources they concern.
    expect(acknowledgements.filter(({ path }) => path === stack.node.path)).toEqual([]);
  });
});

describe('what the acknowledgements rely on', () => {
  let template: Template;
  beforeAll(() => {
    template = Template.fromStack(synthesize({ account: '123456789012', region: 'eu-west-1' }).stack);
  }, 120_000); // synthesis fingerprints the function assets: seconds, more under parallel load

  const allowStatements = () =>
    Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy: any) =>
      (policy.Properties.PolicyDocument.Statement as any[]).filter((statement) => statement.Effect === 'Allow'),
    );

  it('grants nothing on Resource "*" (no tracing, so no X-Ray actions either) but sending to subscriptions\' destinations in other accounts', () => {
    const onEverything = allowStatements().filter((statement) => [statement.Resource].flat().includes('*'));
    expect(onEverything.map((statement) => [statement.Action].flat().sort())).toEqual([['events:PutEvents', 'sns:Publish', 'sqs:SendMessage']]);
  });

  it('grants no wildcard actions at all', () => {
    for (const statement of allowStatements()) for (const action of [statement.Action].flat()) expect(action).not.toContain('*');
  });

  it('grants S3 to the image functions and the indexer only: exactly their calls, on image keys of served images or pending uploads (and, to read pending ones, listing that bucket), on the search failures bucket', () => {
    const s3Of = (policyId: string) =>
      Object.entries(template.findResources('AWS::IAM::Policy'))
        .filter(([id]) => id.startsWith(policyId))
        .flatMap(([, policy]: [string, any]) => policy.Properties.PolicyDocument.Statement as any[])
        .filter((statement) => [statement.Action].flat().some((action: string) => action.startsWith('s3:')));
    const expected: Record<string, { images?: string[]; uploads?: string[]; listsUploads?: boolean }> = {
      UploadImage: { images: ['s3:PutObject', 's3:DeleteObject'] },
      StartImageUpload: { uploads: ['s3:PutObject'] },
      CompleteImageUpload: { images: ['s3:PutObject', 's3:DeleteObject'], uploads: ['s3:GetObject', 's3:DeleteObject'], listsUploads: true },
    };
    const single = (actions: string[]) => (actions.length === 1 ? actions[0] : [...actions].sort());
    for (const [fn, { images, uploads, listsUploads }] of Object.entries(expected)) {
      const statements = s3Of(`${fn}ServiceRoleDefaultPolicy`);
      const onImages = statements.find((statement) => JSON.stringify(statement.Resource).includes('/*/images/*'));
      const onUploads = statements.find((statement) => JSON.stringify(statement.Resource).includes('/*/uploads/*'));
      const listing = statements.filter((statement) => statement.Action === 's3:ListBucket');
      expect(onImages?.Action, fn).toEqual(images && single(images));
      expect(onUploads?.Action, fn).toEqual(uploads && single(uploads));
      if (onImages) expect(JSON.stringify(onImages.Resource)).toMatch(/"Images[0-9A-F]+","Arn"/);
      if (onUploads) expect(JSON.stringify(onUploads.Resource)).toMatch(/"ImageUploads[0-9A-F]+","Arn"/);
      // Completion checks that an object exists: without s3:ListBucket, S3 answers 403 for a missing one.
      expect(listing, fn).toEqual(listsUploads ? [expect.objectContaining({ Resource: { 'Fn::GetAtt': [expect.stringMatching(/^ImageUploads/), 'Arn'] } })] : []);
      expect(statements.length, fn).toBe([onImages, onUploads, ...listing].filter(Boolean).length);
    }
    // The indexer sets aside, replays and removes records in its failures bucket (its mapping's destination too), and nothing else.
    expect(s3Of('IndexChangesServiceRoleDefaultPolicy')).toEqual([
      { Effect: 'Allow', Action: ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'], Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(/^SearchIndexFailures/), 'Arn'] }, '/*']] } },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [expect.stringMatching(/^SearchIndexFailures/), 'Arn'] } },
    ]);
    const all = allowStatements().filter((statement) => [statement.Action].flat().some((action: string) => action.startsWith('s3:')));
    expect(all).toHaveLength(7);
  });

  it('lets the token and introspection functions update the brake counters in client partitions, and nothing else', () => {
    const updates = allowStatements().filter(
      (statement) => [statement.Action].flat().includes('dynamodb:UpdateItem') && JSON.stringify(statement.Condition).includes('CLIENT#'),
    );
    expect(updates).toHaveLength(2);
    for (const statement of updates) {
      expect(statement.Action).toBe('dynamodb:UpdateItem');
      expect(statement.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['CLIENT#*'] },
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'attemptIds', 'expiresAt'] },
        StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
      });
    }
  });

  it('keeps the API\'s access log by default (APIG1), beside the request lines of what reaches a function', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { AccessLogSettings: Match.objectLike({ Format: Match.stringLikeRegexp('context.status') }) });
    // Every function that answers a route has the metric filters of its request lines (test/infra/monitoring.test.ts).
    expect(Object.keys(template.findResources('AWS::Logs::MetricFilter')).length).toBeGreaterThan(0);
  });

  it('keeps server access logs of the images bucket (S1)', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 'images/' },
    });
  });

  it('throttles introspection like the token endpoint (both check client secrets)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      RouteSettings: {
        'POST /oauth/introspect': { ThrottlingRateLimit: THROTTLE.token.rate, ThrottlingBurstLimit: THROTTLE.token.burst },
      },
    });
  });
});
