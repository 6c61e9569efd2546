import { randomBytes } from 'node:crypto';

/** The item attribute that names the last single-item write applied to it. */
export const WRITE_TOKEN_ATTRIBUTE = 'writeToken';

/**
 * Makes a single-item conditional write safe to send twice. After a request timeout the SDK sends
 * the same request again (shared/aws/request-timeouts.ts), and the first attempt may have been
 * applied: an update would then be answered 409 although applied, an unversioned overwrite raise
 * the version twice, an appended image be appended twice. Each such write stamps the item with a
 * token of its own (`set`) and holds only while the item does not carry it yet (`condition`), so a
 * repeat of an applied write fails its condition and finds its token on the item it gets back
 * (`appliedIn`): applied once, answered as applied. Transactions need none of this: they are
 * resent with the same ClientRequestToken, which DynamoDB answers as it answered the first
 * (operations.ts, sendTransaction).
 */
export function newWriteToken() {
  const token = randomBytes(12).toString('base64url');
  return {
    set: `${WRITE_TOKEN_ATTRIBUTE} = :writeToken`,
    condition: `(attribute_not_exists(${WRITE_TOKEN_ATTRIBUTE}) OR ${WRITE_TOKEN_ATTRIBUTE} <> :writeToken)`,
    values: { ':writeToken': token },
    /** Whether the item (as a failed condition returned it) already holds this write. */
    appliedIn: (item: Record<string, unknown> | undefined) => item?.[WRITE_TOKEN_ATTRIBUTE] === token,
  };
}
