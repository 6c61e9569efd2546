import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Permission } from '../shared/http/declaration';
import { FAILURE_COUNTER_ATTRIBUTES } from '../shared/store/dynamodb/client-store';
import { clientKey } from '../shared/store/dynamodb/keys';

/** What the permissions are granted on. */
export interface GrantTargets {
  table: ITableV2;
  /** The key that signs tokens. */
  signingKey: IKey;
  /** Every key whose public half verifies tokens (the signing one and those kept during a rotation). */
  publicKeys: readonly IKey[];
  images: Bucket;
}

/**
 * What each permission a function declares (functions/<name>/endpoint.ts) means in IAM, and
 * nothing more. Keyed by every Permission, so a new one does not compile until it is mapped here.
 * Image object actions are collected and granted in one statement on image keys only.
 */
const grants: Record<Permission, (fn: IFunction, targets: GrantTargets, imageActions: Set<string>) => void> = {
  'table:read': (fn, { table }) => table.grantReadData(fn),
  'table:write': (fn, { table }) => table.grantWriteData(fn),
  'signingKey:sign': (fn, { signingKey }) => signingKey.grant(fn, 'kms:Sign'),
  'signingKey:publicKey': (fn, { publicKeys }) => publicKeys.forEach((key) => key.grant(fn, 'kms:GetPublicKey')),
  // The brute-force brake's counters, and nothing else: client items only, these attributes only.
  'clients:countFailures': (fn, { table }) =>
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [clientKey('*').pk] },
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': FAILURE_COUNTER_ATTRIBUTES },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_NEW'] },
        },
      }),
    ),
  // Exactly the calls of the image storage: put and (to undo a failed upload) delete; HEAD and GET of an
  // uploaded object; and presigning, where S3 checks the signer's s3:PutObject when the URL is used.
  'images:write': (_fn, _targets, imageActions) => ['s3:PutObject', 's3:DeleteObject'].forEach((action) => imageActions.add(action)),
  'images:presignPut': (_fn, _targets, imageActions) => imageActions.add('s3:PutObject'),
  'images:read': (fn, { images }, imageActions) => {
    imageActions.add('s3:GetObject');
    // Without s3:ListBucket, S3 answers 403 instead of 404 for an object that is not there (an upload not sent yet).
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [images.bucketArn] }));
  },
  'extensions:invoke': (fn) => {
    const stack = Stack.of(fn);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [stack.formatArn({ service: 'lambda', resource: 'function', resourceName: 'gr-extension-*', arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      }),
    );
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:lambda:${nagValue(stack.region, 'AWS::Region')}:${nagValue(stack.account, 'AWS::AccountId')}:function:gr-extension-*]`,
      reason: 'Projects bind extension actions to functions chosen at run time; the gr-extension- name prefix is the boundary of what may be invoked (docs/extensions.md).',
    });
  },
};

/** Grants the function exactly its declared permissions. */
export function grantPermissions(fn: IFunction, permissions: readonly Permission[], targets: GrantTargets): void {
  const imageActions = new Set<string>();
  for (const permission of permissions) grants[permission](fn, targets, imageActions);
  if (imageActions.size > 0) {
    const { images } = targets;
    fn.addToRolePolicy(new PolicyStatement({ actions: [...imageActions], resources: [images.arnForObjects('*/images/*')] }));
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(fn).resolve((images.node.defaultChild as CfnBucket).logicalId)}.Arn>/*/images/*]`,
      reason: 'Image keys hold a project key and a fresh uuid chosen per upload, so the function can only be granted the images/ key pattern, not single objects.',
    });
  }
}

/** How cdk-nag names a value in a finding id: the literal, or `<AWS::Region>` for an unresolved pseudo parameter. */
function nagValue(value: string, pseudoParameter: 'AWS::Region' | 'AWS::AccountId'): string {
  return Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
}
