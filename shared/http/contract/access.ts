import type { Access } from '../declaration';

/** The access rules the endpoints share, by what they open. */
export const READ: Access = { kind: 'project', anyOf: ['manage_test', 'view_test'] };
export const MANAGE: Access = { kind: 'project', anyOf: ['manage_test'] };
export const MANAGE_PRODUCTS: Access = { kind: 'project', anyOf: ['manage_products'] };
export const PUBLIC: Access = { kind: 'public' };
