import type { ExtensionAction } from './actions';
import type { JsonValue, StaticTarget } from './binding';
import cartExample from './cart-example.json' with { type: 'json' };

/**
 * The cart that `GET /{projectKey}/resource/namespace-action-with-example` declares as its example: a copy
 * of test/fixtures/examples/action-success.json, kept in source because a function's bundle carries no test fixtures.
 */
export const CART_EXAMPLE: JsonValue = cartExample;

/**
 * What an action answers in a project that bound nothing to it. A project's own binding (stored,
 * `npm run extension -- bind ...`) always wins; `unbind` brings the default back.
 */
export const DEFAULT_BINDINGS: Partial<Record<ExtensionAction, StaticTarget>> = {
  'namespace-action-with-example': { kind: 'static', statusCode: 200, document: CART_EXAMPLE },
};
