import type { PathParameterSpec } from '../declaration';

/** Path parameters several endpoints share; an endpoint describes its own others. */
export const PROJECT_KEY: PathParameterSpec = {
  description: 'The project. A token opens a project through scopes bound to its key, e.g. `manage_test:<projectKey>`.',
};
export const RESOURCE_ID: PathParameterSpec = { description: 'The resource id; on GET, `key=<key>` instead reads the resource by its key.' };
export const SUBSCRIPTION_ID: PathParameterSpec = { description: 'The subscription id, or `key=<key>` to name it by its key.' };
