import type { LocalStack } from './stack';

/** What `npm start` prints once the stack runs. */
export interface StartBannerFacts extends Pick<LocalStack, 'url' | 'dynamoDbEndpoint' | 'tableName' | 's3Endpoint' | 'searchEngine' | 'imageBaseUrl'> {
  dataDir: string;
  devClient: { clientId: string; clientSecret: string; scopes: string[] };
  /** The project the example calls use. */
  project: string;
  /** CORS_ORIGINS as set, if at all. */
  corsOrigins?: string;
}

/** The heading above the example calls; a test runs the lines below it exactly as printed. */
export const EXAMPLE_CALLS_HEADING = 'Try it (a token, then create a resource and read it back):';

export function startBanner(facts: StartBannerFacts): string {
  const { clientId, clientSecret, scopes } = facts.devClient;
  return `
Generic Resource Service is running (local mode)

  API and token service  ${facts.url}
  DynamoDB Local         ${facts.dynamoDbEndpoint}  (table ${facts.tableName})
  S3 emulator (s3rver)   ${facts.s3Endpoint}  (buckets images, image-uploads)
  PostgreSQL (search)    ${facts.searchEngine}
  Images served at       ${facts.imageBaseUrl}
  Data directory         ${facts.dataDir}
  CORS origins           ${facts.corsOrigins || 'none (set CORS_ORIGINS to let browsers of other origins call it)'}
  API reference          ${facts.url}/docs

Development client (local only)
  client id      ${clientId}
  client secret  ${clientSecret}
  scopes         ${scopes.join(' ')}

${EXAMPLE_CALLS_HEADING}
${exampleCalls(facts).map((line) => `  ${line}`).join('\n')}

Ctrl-C stops it; data stays in ${facts.dataDir} for the next start.
`;
}

/**
 * Shell lines a newcomer pastes: each answers 2xx however often they are run (the resource has no
 * key, so a second create does not collide), and the last prints the created resource.
 */
export function exampleCalls(facts: Pick<StartBannerFacts, 'url' | 'devClient' | 'project'>): string[] {
  const { clientId, clientSecret } = facts.devClient;
  const json = (field: string) => `node -pe 'JSON.parse(require("fs").readFileSync(0)).${field}'`;
  const draft = JSON.stringify({ objectTypeProperty: { arrayOfIntExample: [1, 2, 3], arrayOfStringExample: ['dog'] } });
  const resources = `${facts.url}/${facts.project}/resource`;
  return [
    `TOKEN=$(curl -s -u ${shellQuoted(`${clientId}:${clientSecret}`)} -d grant_type=client_credentials ${facts.url}/oauth/token | ${json('access_token')})`,
    `ID=$(curl -s -X POST ${resources} -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d ${shellQuoted(draft)} | ${json('id')})`,
    `curl -s ${resources}/$ID -H "Authorization: Bearer $TOKEN"`,
  ];
}

/** Quoted for a POSIX shell: the client id and secret come from the environment. */
function shellQuoted(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
