import type { EndpointDeclaration, FunctionDeclaration } from '../shared/http/declaration';
import { authorizer } from './authorizer/function';
import { callExtensionAction } from './call-extension-action/endpoint';
import { checkResourcesExist } from './check-resources-exist/endpoint';
import { completeImageUpload } from './complete-image-upload/endpoint';
import { createResource } from './create-resource/endpoint';
import { createSubscription } from './create-subscription/endpoint';
import { deleteResource } from './delete-resource/endpoint';
import { deleteSubscription } from './delete-subscription/endpoint';
import { deliverChanges } from './deliver-changes/function';
import { indexChanges } from './index-changes/function';
import { getApiDocs } from './get-api-docs/endpoint';
import { getAuthorizationServerMetadata } from './get-authorization-server-metadata/endpoint';
import { getJwks } from './get-jwks/endpoint';
import { getOpenApi } from './get-openapi/endpoint';
import { getResource } from './get-resource/endpoint';
import { getSubscriptions } from './get-subscriptions/endpoint';
import { introspectToken } from './introspect-token/endpoint';
import { issueToken } from './issue-token/endpoint';
import { overwriteResource } from './overwrite-resource/endpoint';
import { postComplexPath } from './post-complex-path/endpoint';
import { putJsonValue } from './put-json-value/endpoint';
import { putResource } from './put-resource/endpoint';
import { queryResources } from './query-resources/endpoint';
import { querySortedResources } from './query-sorted-resources/endpoint';
import { routeNotFound } from './route-not-found/endpoint';
import { searchResources } from './search-resources/endpoint';
import { startImageUpload } from './start-image-upload/endpoint';
import { updateResource } from './update-resource/endpoint';
import { uploadImage } from './upload-image/endpoint';

/**
 * Every endpoint of the API, in the order the document lists them. The route table, the OpenAPI
 * document, the CDK stack (routes, functions, grants) and the local gateway are derived from this
 * list; adding an endpoint is its folder plus one line here. Never imported by a Lambda function.
 */
export const endpoints: readonly EndpointDeclaration[] = [
  // OAuth 2.0 token service (same origin as the API).
  issueToken,
  getJwks,
  introspectToken,
  getAuthorizationServerMetadata,
  // The resource collection.
  queryResources,
  checkResourcesExist,
  querySortedResources,
  searchResources,
  createResource,
  overwriteResource,
  putResource,
  // One resource.
  getResource,
  updateResource,
  deleteResource,
  postComplexPath,
  // Images of product variants.
  uploadImage,
  startImageUpload,
  completeImageUpload,
  // Change subscriptions.
  createSubscription,
  getSubscriptions,
  deleteSubscription,
  // Extension actions.
  callExtensionAction,
  putJsonValue,
  // The API reference.
  getOpenApi,
  getApiDocs,
];

/** What answers when no route matches (API Gateway's `$default`). */
export const fallback: EndpointDeclaration = routeNotFound;

/** Every Lambda function of the stack: the endpoints, the fallback, the authorizer and the stream's two consumers (subscriptions, search index). */
export const functions: readonly FunctionDeclaration[] = [...endpoints, fallback, authorizer, deliverChanges, indexChanges];
