import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Permission } from '../shared/http/declaration';
import { TABLE_GRANTS, type TableGrant } from '../shared/store/dynamodb/table-grants';
import type { SearchDatabaseUser, SearchEngine } from './constructs/search-engine';

/** What the permissions are granted on. */
export interface GrantTargets {
  table: ITableV2;
  /** The table's indexes that project reads may query (the optional lastModifiedAt index). */
  readIndexes?: readonly string[];
  /** The key that signs tokens. */
  signingKey: IKey;
  /** Every key whose public half verifies tokens (the signing one and those kept during a rotation). */
  publicKeys: readonly IKey[];
  /** The served images (CloudFront's origin). */
  images: Bucket;
  /** Pending two-step uploads: never served. */
  uploads: Bucket;
  /** The search cluster the search permissions sign in to. */
  searchEngine: SearchEngine;
  /** The stream records the indexer could not index. */
  searchFailures: Bucket;
}

/** Object actions of a function, collected per bucket and granted in one statement on that bucket's key pattern. */
interface ObjectActions {
  images: Set<string>;
  uploads: Set<string>;
}

/**
 * The table statements of a permission (shared/store/dynamodb/table-grants.ts): each holds only for
 * items whose partition key matches its leading key (so never a Scan), and for its attributes.
 */
const tableStatements = (fn: IFunction, grants: readonly TableGrant[] | undefined, { table, readIndexes = [] }: GrantTargets) => {
  for (const grant of grants ?? []) {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [...grant.actions],
        // An index's partition key is the table's: LeadingKeys holds its queries to the same partitions.
        resources: [table.tableArn, ...(grant.withReadIndexes ? readIndexes : []).map((index) => `${table.tableArn}/index/${index}`)],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [grant.leadingKey] },
          ...(grant.attributes
            ? { 'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...grant.attributes] }, StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] } }
            : {}),
        },
      }),
    );
  }
};

/**
 * What each permission a function declares (functions/<name>/endpoint.ts) means in IAM, and
 * nothing more: the one mapping from a permission name to what IAM allows. Keyed by every
 * Permission, so a new one does not compile until it is mapped here.
 */
const grants: Record<Permission, (fn: IFunction, targets: GrantTargets, objects: ObjectActions) => void> = {
  'projects:read': (fn, targets) => tableStatements(fn, TABLE_GRANTS['projects:read'], targets),
  'projects:write': (fn, targets) => tableStatements(fn, TABLE_GRANTS['projects:write'], targets),
  'clients:read': (fn, targets) => tableStatements(fn, TABLE_GRANTS['clients:read'], targets),
  'clients:countAttempts': (fn, targets) => tableStatements(fn, TABLE_GRANTS['clients:countAttempts'], targets),
  'signingKey:sign': (fn, { signingKey }) => signingKey.grant(fn, 'kms:Sign'),
  'signingKey:publicKey': (fn, { publicKeys }) => publicKeys.forEach((key) => key.grant(fn, 'kms:GetPublicKey')),
  'images:write': (_fn, _targets, { images }) => ['s3:PutObject', 's3:DeleteObject'].forEach((action) => images.add(action)),
  // Presigning: S3 checks the signer's s3:PutObject when the URL is used.
  'uploads:presignPut': (_fn, _targets, { uploads }) => uploads.add('s3:PutObject'),
  'uploads:consume': (fn, { uploads: bucket }, { uploads }) => {
    ['s3:GetObject', 's3:DeleteObject'].forEach((action) => uploads.add(action));
    // Without s3:ListBucket, S3 answers 403 instead of 404 for an object that is not there (an upload not sent yet).
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
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
      id: `AwsSolutions-IAM5[Resource::arn:${nagValue(stack.partition, 'AWS::Partition')}:lambda:${nagValue(stack.region, 'AWS::Region')}:${nagValue(stack.account, 'AWS::AccountId')}:function:gr-extension-*]`,
      reason: 'Projects bind extension actions to functions chosen at run time; the gr-extension- name prefix is the boundary of what may be invoked (docs/extensions.md).',
    });
  },
  'subscriptions:deliver': grantDelivery,
  'search:read': (fn, { searchEngine }) => searchEngine.grantConnect(fn, 'reader'),
  'search:write': (fn, { searchEngine }) => searchEngine.grantConnect(fn, 'writer'),
  'searchFailures:write': (fn, { searchFailures }) => {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'], resources: [searchFailures.arnForObjects('*')] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [searchFailures.bucketArn] }));
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(fn).resolve((searchFailures.node.defaultChild as CfnBucket).logicalId)}.Arn>/*]`,
      reason: 'The bucket holds only the stream records set aside by this function and by its own event source mapping, under keys Lambda chooses (a shard, a date, a uuid): the function is granted the bucket\'s objects, nothing else.',
    });
  },
};

/**
 * The user a function signs in to the search engine as, if it declares a search permission: such a
 * function runs in the engine's network (infra/stack.ts), the only place the cluster can be reached.
 */
export function searchDatabaseUserOf(permissions: readonly Permission[]): SearchDatabaseUser | undefined {
  if (permissions.includes('search:write')) return 'writer';
  if (permissions.includes('search:read')) return 'reader';
  return undefined;
}

/**
 * Table partitions of delivery, and sending to the teams' queues, topics and buses: those are in
 * the teams' accounts, chosen at run time, so the grant names no resource; each team's resource
 * policy (naming this function's role) is what opens one (README.md, "Change subscriptions").
 */
function grantDelivery(fn: IFunction, targets: GrantTargets): void {
  tableStatements(fn, TABLE_GRANTS['subscriptions:deliver'], targets);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage', 'sns:Publish', 'events:PutEvents'], resources: ['*'] }));
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: 'Subscriptions send to queues, topics and event buses of other accounts, chosen at run time; their resource policies decide what this role may send to (docs/subscriptions.md).',
  });
}

/** Grants the function exactly its declared permissions. */
export function grantPermissions(fn: IFunction, permissions: readonly Permission[], targets: GrantTargets): void {
  const objects: ObjectActions = { images: new Set(), uploads: new Set() };
  for (const permission of permissions) grants[permission](fn, targets, objects);
  grantObjectActions(fn, targets.images, objects.images, 'images', 'Image keys');
  grantObjectActions(fn, targets.uploads, objects.uploads, 'uploads', 'Pending upload keys');
}

function grantObjectActions(fn: IFunction, bucket: Bucket, actions: Set<string>, folder: string, what: string): void {
  if (actions.size === 0) return;
  fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: [bucket.arnForObjects(`*/${folder}/*`)] }));
  Validations.of(fn).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${Stack.of(fn).resolve((bucket.node.defaultChild as CfnBucket).logicalId)}.Arn>/*/${folder}/*]`,
    reason: `${what} hold a project key and a fresh uuid chosen per upload, so the function can only be granted the ${folder}/ key pattern, not single objects.`,
  });
}

/** How cdk-nag names a value in a finding id: the literal, or `<AWS::Region>` for an unresolved pseudo parameter. */
function nagValue(value: string, pseudoParameter: 'AWS::Partition' | 'AWS::Region' | 'AWS::AccountId'): string {
  return Token.isUnresolved(value) ? `<${pseudoParameter}>` : value;
}
