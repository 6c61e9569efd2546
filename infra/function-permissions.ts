import { ArnFormat, Token, Validations, type Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { HandlerName } from '../shared/http/routes';
import { ATTEMPT_COUNTER_ATTRIBUTES } from '../shared/store/dynamodb/client-store';
import { clientKey, projectPartition } from '../shared/store/dynamodb/keys';

/**
 * What each function may touch, and nothing more. Typed against the route table, so a new
 * route does not compile until its function's permissions are declared.
 *
 * Table access is least privilege by key: every DynamoDB statement carries a
 * `dynamodb:LeadingKeys` condition, so a function reaches either project partitions
 * (`PROJECT#…`) or client items (`CLIENT#…`), never both; no function may Scan (a Scan has no
 * leading key for the condition to check, so it is never granted).
 */
export type Permission =
  /** GetItem, Query, BatchGetItem on project partitions (`PROJECT#…`): resources, variants, uploads, bindings, documents. */
  | 'projects:read'
  /** PutItem, UpdateItem, DeleteItem, BatchWriteItem, ConditionCheckItem (the parts of a transaction) on project partitions. */
  | 'projects:write'
  /** GetItem of client items (`CLIENT#…`): scopes, secret hash, revocation. */
  | 'clients:read'
  /** The brute-force brake: UpdateItem of its counters in client partitions, those attributes only. */
  | 'clients:countAttempts'
  | 'signingKey:sign'
  | 'signingKey:publicKey'
  /** Put (row 13's body, or completion's copy) and, to undo a failed attach, delete image objects (the served bucket). */
  | 'images:write'
  /** Presign PUT URLs into the pending-uploads bucket: S3 checks the signer's s3:PutObject when the URL is used. */
  | 'uploads:presignPut'
  /** Read (and copy from), list (so a missing object is 404, not 403) and delete pending uploads. */
  | 'uploads:consume'
  /** Invoke the Lambda functions that extension actions are bound to (named `gr-extension-*`). */
  | 'extensions:invoke';

export const functionPermissions: Record<HandlerName | 'authorizer' | 'route-not-found', readonly Permission[]> = {
  authorizer: ['signingKey:publicKey', 'clients:read'],
  'route-not-found': [],
  'issue-token': ['clients:read', 'clients:countAttempts', 'signingKey:sign', 'signingKey:publicKey'],
  'introspect-token': ['clients:read', 'clients:countAttempts', 'signingKey:publicKey'],
  'get-jwks': ['signingKey:publicKey'],
  'create-resource': ['projects:read', 'projects:write'],
  'overwrite-resource': ['projects:read', 'projects:write'],
  'put-resource': ['projects:read', 'projects:write'],
  'get-resource': ['projects:read'],
  'query-resources': ['projects:read'],
  'check-resources-exist': ['projects:read'],
  'query-sorted-resources': ['projects:read'],
  'search-resources': ['projects:read'],
  'post-complex-path': ['projects:read', 'projects:write'],
  'upload-image': ['projects:read', 'projects:write', 'images:write'],
  'start-image-upload': ['projects:write', 'uploads:presignPut'],
  'complete-image-upload': ['projects:read', 'projects:write', 'uploads:consume', 'images:write'],
  'call-extension-action': ['projects:read', 'extensions:invoke'],
  'put-json-value': ['projects:write'],
  'update-resource': ['projects:read', 'projects:write'],
  'delete-resource': ['projects:read', 'projects:write'],
  // The API reference is built from the code: no data, no keys.
  'get-openapi': [],
  'get-api-docs': [],
};

/** What the permissions are granted on. */
export interface PermissionTargets {
  stack: Stack;
  table: ITableV2;
  signingKey: IKey;
  /** The served images (CloudFront's origin). */
  images: Bucket;
  /** Pending two-step uploads: never served. */
  uploads: Bucket;
}

const PROJECT_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
const PROJECT_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];

/** The IAM statements of each permission: the one mapping from a permission name to what IAM allows. */
export function grantPermissions(fn: IFunction, permissions: readonly Permission[], targets: PermissionTargets): void {
  const { stack, table, signingKey, images, uploads } = targets;
  const onLeadingKeys = (actions: string[], leadingKey: string) =>
    new PolicyStatement({ actions, resources: [table.tableArn], conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [leadingKey] } } });
  const projects = projectPartition('*');
  const clients = clientKey('*').pk;
  const imageActions = new Set<string>();
  const uploadActions = new Set<string>();

  for (const permission of permissions) {
    switch (permission) {
      case 'projects:read':
        fn.addToRolePolicy(onLeadingKeys(PROJECT_READ_ACTIONS, projects));
        break;
      case 'projects:write':
        fn.addToRolePolicy(onLeadingKeys(PROJECT_WRITE_ACTIONS, projects));
        break;
      case 'clients:read':
        fn.addToRolePolicy(onLeadingKeys(['dynamodb:GetItem'], clients));
        break;
      case 'clients:countAttempts':
        // The brute-force brake's counters, and nothing else: client partitions only, these attributes only.
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [table.tableArn],
            conditions: {
              'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [clients] },
              'ForAllValues:StringEquals': { 'dynamodb:Attributes': ATTEMPT_COUNTER_ATTRIBUTES },
              StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
            },
          }),
        );
        break;
      case 'signingKey:sign':
        signingKey.grant(fn, 'kms:Sign');
        break;
      case 'signingKey:publicKey':
        signingKey.grant(fn, 'kms:GetPublicKey');
        break;
      case 'images:write':
        ['s3:PutObject', 's3:DeleteObject'].forEach((action) => imageActions.add(action));
        break;
      case 'uploads:presignPut':
        uploadActions.add('s3:PutObject');
        break;
      case 'uploads:consume':
        ['s3:GetObject', 's3:DeleteObject'].forEach((action) => uploadActions.add(action));
        // Without s3:ListBucket, S3 answers 403 instead of 404 for an object that is not there (an upload not sent yet).
        fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [uploads.bucketArn] }));
        break;
      case 'extensions:invoke':
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
        break;
    }
  }
  if (imageActions.size > 0) {
    fn.addToRolePolicy(new PolicyStatement({ actions: [...imageActions], resources: [images.arnForObjects('*/images/*')] }));
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalIdOf(stack, images)}.Arn>/*/images/*]`,
      reason: 'Image keys hold a project key and a fresh uuid chosen per upload, so the function can only be granted the images/ key pattern, not single objects.',
    });
  }
  if (uploadActions.size > 0) {
    fn.addToRolePolicy(new PolicyStatement({ actions: [...uploadActions], resources: [uploads.arnForObjects('*/uploads/*')] }));
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalIdOf(stack, uploads)}.Arn>/*/uploads/*]`,
      reason: 'Pending upload keys hold a project key and a fresh uuid chosen per upload, so the function can only be granted the uploads/ key pattern, not single objects.',
    });
  }
}

const logicalIdOf = (stack: Stack, bucket: Bucket) => stack.resolve((bucket.node.defaultChild as CfnBucket).logicalId) as string;

/** How cdk-nag names a value in a finding id: the literal, or `<AWS::Region>` for an unresolved pseudo parameter. */
function nagValue(value: string, pseudoParameter: 'AWS::Region' | 'AWS::AccountId'): string {
  return Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
}
