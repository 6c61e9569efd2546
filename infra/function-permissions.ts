import type { HandlerName } from '../shared/http/routes';

/**
 * What each function may touch, and nothing more. Typed against the route table, so a new
 * route does not compile until its function's permissions are declared here.
 */
export type Permission =
  | 'table:read'
  | 'table:write'
  | 'signingKey:sign'
  | 'signingKey:publicKey'
  /** Count failed client authentications: UpdateItem of the brake's counters on `CLIENT#` items only. */
  | 'clients:countFailures'
  /** Put (and, to undo a failed upload, delete) image objects. */
  | 'images:write'
  /** Read image objects (HEAD and GET of an uploaded object); may list the bucket, so a missing object is 404, not 403. */
  | 'images:read'
  /** Presign PUT URLs of image objects: S3 checks the signer's s3:PutObject when the URL is used. */
  | 'images:presignPut'
  /** Invoke the Lambda functions that extension actions are bound to (named `gr-extension-*`). */
  | 'extensions:invoke';

export const functionPermissions: Record<HandlerName | 'authorizer' | 'route-not-found', readonly Permission[]> = {
  authorizer: ['table:read'],
  'route-not-found': [],
  'issue-token': ['table:read', 'clients:countFailures', 'signingKey:sign', 'signingKey:publicKey'],
  'introspect-token': ['table:read', 'clients:countFailures', 'signingKey:publicKey'],
  'get-jwks': ['signingKey:publicKey'],
  'create-resource': ['table:read', 'table:write'],
  'overwrite-resource': ['table:read', 'table:write'],
  'put-resource': ['table:read', 'table:write'],
  'get-resource': ['table:read'],
  'query-resources': ['table:read'],
  'check-resources-exist': ['table:read'],
  'query-sorted-resources': ['table:read'],
  'search-resources': ['table:read'],
  'post-complex-path': ['table:read', 'table:write'],
  'upload-image': ['table:read', 'table:write', 'images:write'],
  'start-image-upload': ['table:write', 'images:presignPut'],
  'complete-image-upload': ['table:read', 'table:write', 'images:read', 'images:write'],
  'call-extension-action': ['table:read', 'extensions:invoke'],
  'put-json-value': ['table:write'],
  'update-resource': ['table:read', 'table:write'],
  'delete-resource': ['table:read', 'table:write'],
  // The API reference is built from the code: no data, no keys.
  'get-openapi': [],
  'get-api-docs': [],
};
