import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { functionEntry, lambdaBundling, lambdaEsbuildArgs, projectRoot } from '../bundling';
import { copyBesideBundle } from '../files-beside-bundle';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/aws/deadline';
import type { IVpc, SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';

export interface EndpointFunctionProps {
  /** Folder under functions/ holding `handler.ts`. */
  handler: string;
  environment: Record<string, string>;
  memorySize?: number;
  /** Default 10 s (an API request). */
  timeout?: Duration;
  /** Files the handler reads next to its bundle (paths from the repository root). */
  filesBesideBundle?: readonly string[];
  /** The network the function runs in; none (Lambda's own) unless it must reach something inside one. */
  network?: { vpc: IVpc; subnets: SubnetSelection };
  /** Instances that may run at once, reserved from the account's concurrency; unbounded unless set. */
  reservedConcurrency?: number;
}

/**
 * One Lambda function per endpoint with the defaults every function shares: Node.js 22 on arm64,
 * a minified ESM bundle with the AWS SDK inside (no cold-start lookups in the runtime's copy),
 * JSON logs kept for a month. No X-Ray tracing: docs/design.md (Observability of a request) says why.
 */
export class EndpointFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: EndpointFunctionProps) {
    super(scope, id, {
      entry: functionEntry(props.handler),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // The worst page (500 resources near DynamoDB's item limit) peaks at 150 MB (bench `memory`): 256 MB holds it.
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      loggingFormat: LoggingFormat.JSON,
      // Log ingestion is paid per byte on every request: the platform's START/END/REPORT lines
      // are dropped (duration and errors are in the Lambda metrics) and the code logs at INFO —
      // one request line per request (Lambda hands this level to the code as AWS_LAMBDA_LOG_LEVEL).
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      logGroup: new LogGroup(scope, `${id}Logs`, {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      environment: props.environment,
      reservedConcurrentExecutions: props.reservedConcurrency,
      vpc: props.network?.vpc,
      vpcSubnets: props.network?.subnets,
      bundling: {
        format: OutputFormat.ESM,
        target: lambdaBundling.target,
        minify: lambdaBundling.minify,
        // No source maps: `--enable-source-maps` makes Node read them at cold start, which costs more
        // than minified stack traces do; errors are logged with their name and message anyway.
        sourceMap: false,
        bundleAwsSDK: true,
        mainFields: lambdaBundling.mainFields,
        banner: lambdaBundling.banner,
        define: lambdaBundling.define,
        commandHooks: props.filesBesideBundle?.length ? copyBesideBundle(props.filesBesideBundle) : undefined,
        esbuildArgs: lambdaEsbuildArgs,
      },
    });

    // cdk-nag (AwsSolutions) findings every endpoint function has, each checked and accepted:
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'AWSLambdaBasicExecutionRole grants only logs:CreateLogGroup/CreateLogStream/PutLogEvents; a customer-managed copy would grant the same.',
      },
      {
        id: 'AwsSolutions-L1',
        reason: 'The runtime is pinned to Node.js 22 (LTS), the version the bundles target and the tests run against; moving to a newer runtime is a deliberate, tested change.',
      },
    );
    if (props.network) {
      Validations.of(this).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole]',
        reason: 'AWSLambdaVPCAccessExecutionRole grants only the network interface calls Lambda makes to place a function in its subnets; a customer-managed copy would grant the same.',
      });
    }
  }
}
