import { authorizationServerMetadata } from '../../shared/auth/authorization-server-metadata';
import { config } from '../../shared/config';
import { endpoint } from '../../shared/http/endpoint';
import { getAuthorizationServerMetadata } from './endpoint';

/** GET /.well-known/oauth-authorization-server — OAuth 2.0 discovery (RFC 8414). */
export const handler = endpoint(getAuthorizationServerMetadata, async () => ({
  statusCode: 200,
  body: authorizationServerMetadata(config.tokenIssuer),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
