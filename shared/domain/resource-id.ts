import { v7 } from 'uuid';

/**
 * Resource ids are UUIDs of version 7 (RFC 9562): their first 48 bits are the creation time in
 * epoch milliseconds, so ids sort by creation time as strings. The id of a resource carries the
 * very millisecond of its `createdAt`, which makes id order the order `createdAt asc, id asc`
 * exactly — the order `sort=createdAt asc` asks for, with commercetools' id tiebreak.
 */
export function creationOrderedId(createdAt: string): string {
  return v7({ msecs: Date.parse(createdAt) });
}

/**
 * The lowest id prefix of a resource created at `epochMs` or later: every creation-ordered id
 * of that millisecond starts with it (`xxxxxxxx-xxxx`, the 48-bit time in hex), and later ones
 * sort above it.
 */
export function idPrefixAt(epochMs: number): string {
  const hex = Math.max(0, Math.min(epochMs, 2 ** 48 - 1)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}

/** Whether `id` is creation-ordered and carries exactly `createdAt`'s millisecond. */
export function isCreationOrdered(id: string, createdAt: string): boolean {
  return id[14] === '7' && id.startsWith(idPrefixAt(Date.parse(createdAt)));
}
