import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';

const projectRoot = join(import.meta.dirname, '..', '..');

export interface EndpointFunctionProps {
  /** Folder under functions/ holding `handler.ts`. */
  handler: string;
  environment: Record<string, string>;
  memorySize?: number;
}

/**
 * One Lambda function per endpoint with the defaults every function shares: Node.js 22 on arm64,
 * a minified ESM bundle with the AWS SDK inside (no cold-start lookups in the runtime's copy),
 * JSON logs kept for a month, X-Ray tracing on.
 */
export class EndpointFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: EndpointFunctionProps) {
    super(scope, id, {
      entry: join(projectRoot, 'functions', props.handler, 'handler.ts'),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      logGroup: new LogGroup(scope, `${id}Logs`, {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'generic-resource-service',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        bundleAwsSDK: true,
        mainFields: ['module', 'main'],
        // Some CommonJS dependencies call require(); give ESM bundles one.
        banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
  }
}
