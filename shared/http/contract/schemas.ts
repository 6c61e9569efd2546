import * as z from 'zod/mini';
import type { DocumentSchema } from './document-schema';
import { errorSchemas } from './error-schemas';
import { imageSchemas } from './image-schemas';
import { oauthSchemas } from './oauth-schemas';
import { resourceSchemas } from './resource-schemas';
import { searchSchemas } from './search-schemas';
import { pageOf } from '../../domain/query';
import { Subscription, SubscriptionDraft } from '../../domain/subscriptions/subscription';

/**
 * The schema catalogue: every body and answer of the OpenAPI document, by the name declarations
 * refer to it with (`json('ObjectTestType')`; the names are checked by type). Named schemas are
 * listed under components/schemas and referred to by `$ref`, also where they are nested in
 * others; `inline` ones are written out where used. Only the document builder (openapi.ts) imports
 * this module, so declarations put no schema into any function's bundle.
 */
export const documentSchemas = {
  ...resourceSchemas,
  ...searchSchemas,
  ...imageSchemas,
  ...oauthSchemas,
  ...errorSchemas,
  SubscriptionDraft: { schema: SubscriptionDraft, description: 'Body of POST /{projectKey}/subscriptions: where the changes of `resource` go.' },
  Subscription: { schema: Subscription, description: 'A change subscription; on creation with an HTTP destination, also `signingSecret` (answered once).' },
  SubscriptionPagedQueryResponse: { schema: pageOf(Subscription), description: 'A page of the subscriptions.' },
  /** Any text (the API reference's page and files). */
  Text: { schema: z.string(), inline: true },
  /** Any JSON object (the OpenAPI document itself). */
  JsonObject: { schema: z.record(z.string(), z.unknown()), inline: true },
} satisfies Record<string, DocumentSchema>;

export type SchemaName = keyof typeof documentSchemas;
