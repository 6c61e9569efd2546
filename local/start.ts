import { LocalStartError } from './local-start-error';
import { startLocalStack } from './stack';

/**
 * `npm start`: the whole service on this machine. Configured by environment variables:
 * PORT, HOST, LOCAL_DATA_DIR, DYNAMODB_LOCAL_PORT, S3_LOCAL_PORT, LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, LOCAL_PROJECT_KEYS.
 */
const settings = {
  port: Number(process.env.PORT ?? 8080),
  host: process.env.HOST ?? 'localhost',
  dataDir: process.env.LOCAL_DATA_DIR ?? '.local',
  dynamoDbPort: process.env.DYNAMODB_LOCAL_PORT ? Number(process.env.DYNAMODB_LOCAL_PORT) : undefined,
  s3Port: process.env.S3_LOCAL_PORT ? Number(process.env.S3_LOCAL_PORT) : undefined,
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
    onAnswered: ({ method, path, status, milliseconds, correlationId }) =>
      console.log(`${new Date().toISOString().slice(11, 23)} ${method} ${path} → ${status} ${milliseconds}ms  ${correlationId}`),
  });
  const { clientId, clientSecret, projectKeys } = settings.devClient;
  const project = projectKeys[0] ?? 'demo';
  console.log(`
Generic Resource Service is running (local mode)

  API and token service  ${stack.url}
  DynamoDB Local         ${stack.dynamoDbEndpoint}  (table ${stack.tableName})
  S3 emulator (s3rver)   ${stack.s3Endpoint}  (buckets images, image-uploads)
  Images served at       ${stack.imageBaseUrl}
  Data directory         ${settings.dataDir}

Development client (local only)
  client id      ${clientId}
  client secret  ${clientSecret}
  scopes         ${stack.devClientScopes.join(' ')}

Get a token:
  curl -s -u ${clientId}:${clientSecret} -d grant_type=client_credentials ${stack.url}/oauth/token

Then call the API:
  curl -s -H "Authorization: Bearer <access_token>" ${stack.url}/${project}/resource/key=my-key

Ctrl-C stops it; data stays in ${settings.dataDir} for the next start.
`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping …');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  if (error instanceof LocalStartError) {
    console.error(`\nCannot start: ${error.message}`);
    process.exit(error.exitCode);
  }
  throw error;
}
