/** Sections of the API reference, in this order. */
export const tags = {
  Resources: 'The resource collection of a project: query, search, create, read, update, delete.',
  Images: 'Images of product variants.',
  Subscriptions: 'Change subscriptions: every change of the resources, sent to a webhook, a queue, a topic or an event bus.',
  Extensions: 'Extension actions, answered by what the project bound them to.',
  OAuth: 'The OAuth 2.0 token service (same origin as the API).',
  'API reference': 'This document and the page that renders it.',
} as const;
export type Tag = keyof typeof tags;
