import type { Access } from '../declaration';

/** The access rules the endpoints share, by what they open. */
export const READ: Access = { kind: 'project', anyOf: ['manage_test', 'view_test'] };
export const MANAGE: Access = { kind: 'project', anyOf: ['manage_test'] };
export const MANAGE_PRODUCTS: Access = { kind: 'project', anyOf: ['manage_products'] };
export const PUBLIC: Access = { kind: 'public' };
export const MANAGE_SUBSCRIPTIONS: Access = { kind: 'project', anyOf: ['manage_subscriptions'] };
export const VIEW_SUBSCRIPTIONS: Access = { kind: 'project', anyOf: ['manage_subscriptions', 'view_subscriptions'] };
