import type { AuthFailures } from '../auth/brute-force-brake';

/** An API client of the token service: who may ask for tokens, and for which scopes. */
export interface ApiClient {
  clientId: string;
  name: string;
  secretHash: string;
  /** The scopes the client was created with; a token gets at most these. */
  scopes: string[];
  createdAt: string;
  revokedAt?: string;
  /** Failed authentications in the current window (the brute-force brake). */
  authFailures?: AuthFailures;
}

export interface ClientStore {
  get(clientId: string): Promise<ApiClient | undefined>;
  /** Creates or replaces a client (replacing is how local mode refreshes its development client). */
  put(client: ApiClient): Promise<void>;
  list(): Promise<ApiClient[]>;
  revoke(clientId: string, at: string): Promise<boolean>;
  /**
   * Counts one failed authentication in one atomic write: in the window of `seen` (the state the
   * caller read) or, when that window is over, in a new one starting at `now`. Answers the new
   * state, or undefined when the client does not exist.
   */
  countFailure(clientId: string, seen: AuthFailures | undefined, now: number): Promise<AuthFailures | undefined>;
  /** Forgets the failures (an operator unlocking a client); false when the client does not exist. */
  clearFailures(clientId: string): Promise<boolean>;
}
