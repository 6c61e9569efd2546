/**
 * The extension actions (POST and GET `/{projectKey}/resource/namespace-action`, GET `…/namespace-action-with-example`). The action name is the last segment of
 * its path: `/{projectKey}/resource/<action>`.
 */
export const EXTENSION_ACTIONS = ['namespace-action', 'namespace-action-with-example'] as const;

export type ExtensionAction = (typeof EXTENSION_ACTIONS)[number];

export const isExtensionAction = (name: string): name is ExtensionAction =>
  (EXTENSION_ACTIONS as readonly string[]).includes(name);
