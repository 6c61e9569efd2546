import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, SystemLogLevel, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { functionEntry, lambdaBundling, lambdaEsbuildArgs, projectRoot } from '../bundling';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';

export interface EndpointFunctionProps {
  /** Folder under functions/ holding `handler.ts`. */
  handler: string;
  environment: Record<string, string>;
  memorySize?: number;
  /** Commands around bundling, e.g. to place files next to the bundle (infra/api-docs-assets.ts). */
  commandHooks?: ICommandHooks;
}

/**
 * One Lambda function per endpoint with the defaults every function shares: Node.js 22 on arm64,
 * a minified ESM bundle with the AWS SDK inside (no cold-start lookups in the runtime's copy),
 * JSON logs kept for a month, X-Ray tracing on.
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
      memorySize: props.memorySize ?? 256,
      timeout: Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      // Log ingestion is paid per byte on every request: the platform's START/END/REPORT lines
      // are dropped (duration and errors are in the Lambda metrics) and the code logs at INFO.
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      logGroup: new LogGroup(scope, `${id}Logs`, {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      environment: {
        POWERTOOLS_SERVICE_NAME: 'generic-resource-service',
        ...props.environment,
      },
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
        commandHooks: props.commandHooks,
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
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray tracing (xray:PutTraceSegments, PutTelemetryRecords, GetSampling*) supports no resource-level permissions; test/infra/nag.test.ts checks that no other action is granted on "*".',
      },
      {
        id: 'AwsSolutions-L1',
        reason: 'The runtime is pinned to Node.js 22 (LTS), the version the bundles target and the tests run against; moving to a newer runtime is a deliberate, tested change.',
      },
    );
  }
}
