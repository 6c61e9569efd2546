/* global module */
/**
 * The layers of the service and the direction of their imports (docs/architecture.md, "Layers and
 * dependency rules"), checked by `npm run depcheck` as part of `npm test`:
 *
 *   functions/, local/, scripts/, bench/   entry points: handlers, the local stack, tools
 *     → shared/composition-root.ts         builds clients, stores and services once per process
 *     → shared/http/                       HTTP adapter: requests, routes, errors → answers
 *     → shared/services/                   use cases
 *     → shared/domain/, store ports        shared/store/*.ts (interfaces)
 *     ← shared/store/dynamodb|s3/, aws/    adapters, implementing the ports
 *
 * A rule that must bend for code being reworked elsewhere gets a commented, temporary exception
 * naming why; remove the exception when that work lands.
 */

/** Entry points and deployment code: nothing in shared/ may import them. */
const OUTSIDE_SHARED = '^(functions|infra|local|scripts|bench)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules that import each other cannot be understood, tested or loaded one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'The domain (entities, rules, errors, validation) knows no HTTP, no store, no AWS, no use case.',
      from: { path: '^shared/domain/' },
      to: { path: ['^shared/(services|store|http|auth|aws|observability)/', '^shared/(composition-root|config)\\.ts$', OUTSIDE_SHARED] },
    },
    {
      name: 'services-speak-domain',
      severity: 'error',
      comment: 'Use cases take the domain and store ports; HTTP is the adapter above them, adapters are wired in by the composition root.',
      from: { path: '^shared/services/' },
      to: { path: ['^shared/http/', '^shared/store/(dynamodb|s3)/', '^shared/aws/', '^shared/composition-root\\.ts$', OUTSIDE_SHARED] },
    },
    {
      name: 'store-below-services',
      severity: 'error',
      comment: 'Stores (ports and adapters) serve the services; they never call back up into use cases or HTTP.',
      from: { path: '^shared/store/' },
      to: { path: ['^shared/(services|http)/', '^shared/composition-root\\.ts$', OUTSIDE_SHARED] },
    },
    {
      name: 'store-not-auth',
      severity: 'error',
      comment: 'The store persists what auth decides; it does not import auth.',
      from: { path: '^shared/store/' },
      to: { path: '^shared/auth/' },
    },
    {
      name: 'auth-not-http',
      severity: 'error',
      comment: 'Auth throws OAuthError; shared/http/errors.ts renders it.',
      from: { path: '^shared/auth/' },
      to: { path: ['^shared/(http|services)/', '^shared/composition-root\\.ts$', OUTSIDE_SHARED] },
    },
    {
      name: 'shared-not-entry-points',
      severity: 'error',
      comment: 'shared/ is what the entry points and the stack are built from, never the other way round.',
      from: { path: '^shared/' },
      to: { path: OUTSIDE_SHARED },
    },
    {
      name: 'composition-root-only-at-entry-points',
      severity: 'error',
      comment: 'Only handlers, the local stack, tools and tests ask the composition root; shared code takes its parts as arguments.',
      from: { path: '^shared/', pathNot: '^shared/composition-root\\.ts$' },
      to: { path: '^shared/composition-root\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^node_modules/', '^cdk\\.out/', '^\\.local/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
