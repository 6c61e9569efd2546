import { defineFunction } from '../../shared/http/declaration';

/** The API's Lambda authorizer: not an endpoint (it serves no route), but a function of the stack with its own permissions, declared like the endpoints. */
export const authorizer = defineFunction({ name: 'authorizer', permissions: ['clients:read'] });
