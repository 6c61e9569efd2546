import type { ProjectScope } from '../declaration';

/** What each project-bound scope opens, for the API reference (which adds the operations that accept it). */
export const SCOPE_DESCRIPTIONS: Record<ProjectScope, string> = {
  manage_test: 'Read and write the resources of the project (everything but the image upload)',
  view_test: 'Read the resources of the project',
  manage_products: 'Upload images to the product variants of the project',
  introspect_oauth_tokens: "Introspect any token of the project at POST /oauth/introspect (without it, a client introspects only its own tokens); no route of the project accepts it",
  manage_subscriptions: 'Create, read and delete the change subscriptions of the project',
  view_subscriptions: 'Read the change subscriptions of the project',
};
