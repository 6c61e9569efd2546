import { PROJECT_SCOPE_NAMES } from './scopes';

/**
 * OAuth 2.0 Authorization Server Metadata (RFC 8414), served at
 * `/.well-known/oauth-authorization-server`. Every address is the issuer's, which is the address
 * clients use: the custom domain when the stack has one (infra/stack.ts sets TOKEN_ISSUER), the
 * execute-api URL otherwise, `http://localhost:<port>` locally. Tokens carry the same `iss`.
 */
export interface AuthorizationServerMetadata {
  issuer: string;
  token_endpoint: string;
  jwks_uri: string;
  introspection_endpoint: string;
  grant_types_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  introspection_endpoint_auth_methods_supported: string[];
  /** Required by RFC 8414; empty, because there is no authorization endpoint (client credentials only). */
  response_types_supported: string[];
  /**
   * Scopes are bound to a project, so they are listed as templates: `manage_test:{projectKey}` is
   * granted as e.g. `manage_test:demo` (RFC 8414 lets a server list what it chooses to advertise).
   */
  scopes_supported: string[];
  service_documentation: string;
}

export function authorizationServerMetadata(issuer: string): AuthorizationServerMetadata {
  const base = issuer.replace(/\/+$/, '');
  return {
    issuer,
    token_endpoint: `${base}/oauth/token`,
    jwks_uri: `${base}/oauth/jwks`,
    introspection_endpoint: `${base}/oauth/introspect`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic'],
    response_types_supported: [],
    scopes_supported: PROJECT_SCOPE_NAMES.map((scope) => `${scope}:{projectKey}`),
    service_documentation: `${base}/docs`,
  };
}
