/** Why a forwarded extension call produced no usable answer; the service maps them to 502/504. */
export abstract class ExtensionCallError extends Error {}

/** No complete answer within the time limit (504 ExtensionNoResponse). */
export class ExtensionTimeoutError extends ExtensionCallError {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** An answer that cannot be relayed: not JSON, too large, a redirect, an error of the function (502). */
export class ExtensionBadResponseError extends ExtensionCallError {}

/** The target could not be reached: unresolvable name, connection refused or reset (502). */
export class ExtensionUnreachableError extends ExtensionCallError {}

/**
 * The target may not be called from here: a scheme or an address the SSRF policy refuses (502).
 * `detail` (the resolved address) is for the logs, not for the answer.
 */
export class ExtensionTargetRefusedError extends ExtensionCallError {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The kind of target cannot be invoked by this deployment (the Lambda invoker is not wired). */
export class ExtensionTargetUnavailableError extends ExtensionCallError {}
