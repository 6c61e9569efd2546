/** The grammar of scopes: what a client may be created with, and what a token's `scope` claim must look like before any of it is trusted. */

/**
 * The project-bound scopes: the one place their names are declared. A token holds
 * `<scope>:<projectKey>`; endpoint declarations accept scopes by these names, and the API
 * reference describes each (`SCOPE_DESCRIPTIONS` in shared/http/openapi.ts, typed by these names).
 *
 * `introspect_oauth_tokens` (commercetools' name) opens no route: it lets a client introspect the project's tokens (introspection.ts).
 */
export const PROJECT_SCOPE_NAMES = ['manage_test', 'view_test', 'manage_products', 'introspect_oauth_tokens', 'manage_subscriptions', 'view_subscriptions'] as const;
export type ProjectScopeName = (typeof PROJECT_SCOPE_NAMES)[number];

/** Project keys follow the commercetools key rule: 2 to 256 characters of `A-Z a-z 0-9 _ -`. */
export const PROJECT_KEY_PATTERN = /^[A-Za-z0-9_-]{2,256}$/;

const PROJECT_SCOPE = new RegExp(`^(${PROJECT_SCOPE_NAMES.join('|')}):([A-Za-z0-9_-]{2,256})$`);

/** RFC 6749 §3.3 `scope-token`: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * A token's `scope` claim as this service writes it: a string of scope tokens joined by single
 * spaces, no leading or trailing space (or the empty string: a token that opens nothing).
 * Anything else (an array, a number, `"manage_test:demo "`, tabs) is not a token we issued.
 */
export function isCanonicalScopeClaim(value: unknown): value is string {
  return typeof value === 'string' && (value === '' || value.split(' ').every((scope) => SCOPE_TOKEN.test(scope)));
}

export const isProjectScope = (scope: string): boolean => PROJECT_SCOPE.test(scope);

export class ScopeError extends Error {}

/**
 * Reads the scopes a client is created with: space- or comma-separated, each `<name>:<projectKey>`.
 * With a project, a bare name (`manage_test`) means that name on the project. Duplicates are
 * dropped; at least one scope is required.
 */
export function parseClientScopes(text: string, project?: string): string[] {
  if (project !== undefined && !PROJECT_KEY_PATTERN.test(project)) {
    throw new ScopeError(`'${project}' is not a project key (2-256 characters of A-Z a-z 0-9 _ -).`);
  }
  const scopes = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((scope) => ((PROJECT_SCOPE_NAMES as readonly string[]).includes(scope) && project ? `${scope}:${project}` : scope));
  if (scopes.length === 0) throw new ScopeError('At least one scope is required.');
  const invalid = scopes.filter((scope) => !isProjectScope(scope));
  if (invalid.length > 0) {
    throw new ScopeError(
      `Not a scope: ${invalid.map((scope) => `'${scope}'`).join(', ')}. A scope is <${PROJECT_SCOPE_NAMES.join('|')}>:<projectKey>` +
        (project ? '' : ', or a bare name with --project'),
    );
  }
  return [...new Set(scopes)];
}

/** The project key of a `<name>:<projectKey>` scope; undefined for anything else. */
export const projectOfScope = (scope: string): string | undefined => PROJECT_SCOPE.exec(scope)?.[2];
