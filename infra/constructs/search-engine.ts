import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { GatewayVpcEndpointAwsService, SubnetType, Vpc, type SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AuroraPostgresEngineVersion, ClusterInstance, Credentials, DatabaseCluster, DatabaseClusterEngine } from 'aws-cdk-lib/aws-rds';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { searchConnectionBudget, type SearchConnectionBudget } from '../search-connection-budget';
import { SEARCH_DATABASE_NAME, SEARCH_DATABASE_USERS, searchDatabaseUsersSql } from '../search-database-users';

export type SearchDatabaseUser = keyof typeof SEARCH_DATABASE_USERS;

export interface SearchEngineProps {
  /** Aurora capacity units the cluster keeps when idle: 0 pauses it (storage only, ≈ 15 s to resume); 0.5 keeps it awake. */
  minCapacity: number;
  maxCapacity: number;
  /** Search instances at once, instead of the budget's default cap (`-c searchConcurrency`). */
  searchConcurrency?: number;
}

/** The id CDK gives the function of AwsCustomResource, a singleton of the stack. */
export const AWS_CUSTOM_RESOURCE_FUNCTION_ID = 'AWS679f53fac002430cb0da5b7982bd2287';

/** Idle minutes before a cluster at 0 ACU pauses: Aurora's shortest. */
export const AUTO_PAUSE = Duration.minutes(5);

/**
 * The search engine in AWS: Aurora PostgreSQL Serverless v2 in a network of its own, isolated
 * subnets only (no NAT: the functions in it reach the cluster and, through gateway endpoints,
 * DynamoDB and S3, and nothing else), the functions signing in with IAM tokens as one of two users
 * (docs/design.md, "Search engine").
 */
export class SearchEngine extends Construct {
  readonly vpc: Vpc;
  readonly cluster: DatabaseCluster;
  /** How many instances of each function may run, each holding a connection. */
  readonly budget: SearchConnectionBudget;
  readonly maxCapacity: number;
  /** Where a function that signs in to the engine runs. */
  readonly subnets: SubnetSelection = { subnetType: SubnetType.PRIVATE_ISOLATED };

  constructor(scope: Construct, id: string, props: SearchEngineProps) {
    super(scope, id);
    this.maxCapacity = props.maxCapacity;
    this.budget = searchConnectionBudget(props.maxCapacity, { minAcu: props.minCapacity, searchConcurrency: props.searchConcurrency });
    this.vpc = new Vpc(this, 'Network', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'isolated', subnetType: SubnetType.PRIVATE_ISOLATED, cidrMask: 24 }],
      gatewayEndpoints: { DynamoDb: { service: GatewayVpcEndpointAwsService.DYNAMODB }, S3: { service: GatewayVpcEndpointAwsService.S3 } },
    });
    Validations.of(this.vpc).acknowledge({
      id: 'AwsSolutions-VPC7',
      reason: 'The network holds the search cluster and the two functions that sign in to it, nothing else, and has no route out; flow logs (billed per GB) would record only those connections, which the cluster and the functions already account for.',
    });

    this.cluster = new DatabaseCluster(this, 'Cluster', {
      engine: DatabaseClusterEngine.auroraPostgres({ version: AuroraPostgresEngineVersion.VER_17_5 }),
      writer: ClusterInstance.serverlessV2('Writer'),
      serverlessV2MinCapacity: props.minCapacity,
      serverlessV2MaxCapacity: props.maxCapacity,
      serverlessV2AutoPauseDuration: props.minCapacity === 0 ? AUTO_PAUSE : undefined,
      vpc: this.vpc,
      vpcSubnets: this.subnets,
      defaultDatabaseName: SEARCH_DATABASE_NAME,
      // The master user signs in once per deploy, through the Data API, to create the two users below.
      credentials: Credentials.fromGeneratedSecret('postgres'),
      enableDataApi: true,
      iamAuthentication: true,
      storageEncrypted: true,
      // An index of the table, which stays the record: `npm run search -- reindex` rebuilds it, so a
      // deleted stack leaves a final snapshot rather than the cluster, and a day of backups is enough.
      removalPolicy: RemovalPolicy.SNAPSHOT,
      backup: { retention: Duration.days(1) },
    });
    Validations.of(this.cluster).acknowledge(
      {
        id: 'AwsSolutions-RDS10',
        reason: 'The cluster holds a search index derived from the table (the record, which has deletion protection); deleting the stack snapshots it, and a reindex rebuilds it from the table.',
      },
      {
        id: 'AwsSolutions-RDS11',
        reason: 'Only the security groups of the two search functions reach the cluster, in subnets with no route in or out; another port would hide nothing from them.',
      },
      {
        id: 'AwsSolutions-SMG4',
        reason: 'The master secret is used once per deploy, by the Data API, to create the IAM-only users the functions sign in as; rotating it would need a rotation function with a route to Secrets Manager that this network does not have.',
      },
    );

    const users = new AwsCustomResource(this, 'Users', {
      onUpdate: {
        service: 'RDSData',
        action: 'executeStatement',
        parameters: { resourceArn: this.cluster.clusterArn, secretArn: this.cluster.secret!.secretArn, database: SEARCH_DATABASE_NAME, sql: searchDatabaseUsersSql(this.budget) },
        physicalResourceId: PhysicalResourceId.of('search-database-users'),
      },
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({ actions: ['rds-data:ExecuteStatement'], resources: [this.cluster.clusterArn] }),
        new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [this.cluster.secret!.secretArn] }),
      ]),
      installLatestAwsSdk: false,
      logGroup: new LogGroup(this, 'UsersLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    });
    users.node.addDependency(this.cluster);
    // The function behind every AwsCustomResource of the stack: one, created with the first.
    const provider = Stack.of(this).node.tryFindChild(AWS_CUSTOM_RESOURCE_FUNCTION_ID);
    if (provider) {
      Validations.of(provider).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'The deploy-time function that runs the users statement through the Data API logs with AWSLambdaBasicExecutionRole, which grants only logs:CreateLogGroup/CreateLogStream/PutLogEvents.',
      });
    }
  }

  /** Lets the function sign in as `user` (rds-db:connect) and reach the cluster's port. */
  grantConnect(fn: IFunction, user: SearchDatabaseUser): void {
    this.cluster.grantConnect(fn, SEARCH_DATABASE_USERS[user]);
    this.cluster.connections.allowDefaultPortFrom(fn, `${fn.node.id} signs in as ${SEARCH_DATABASE_USERS[user]}`);
  }

  /** What a function that signs in as `user` is told (shared/config.ts `searchDatabase`). */
  environment(user: SearchDatabaseUser): Record<string, string> {
    return {
      SEARCH_DATABASE_HOST: this.cluster.clusterEndpoint.hostname,
      SEARCH_DATABASE_PORT: Token.asString(this.cluster.clusterEndpoint.port),
      SEARCH_DATABASE_NAME,
      SEARCH_DATABASE_USER: SEARCH_DATABASE_USERS[user],
      // Node.js 20+ on Lambda trusts the RDS certificate authorities only when told of the runtime's bundle.
      NODE_EXTRA_CA_CERTS: '/var/runtime/ca-cert.pem',
    };
  }
}
