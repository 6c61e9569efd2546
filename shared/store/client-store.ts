import type { AttemptCounter } from '../domain/auth/brute-force-brake';

/** An API client of the token service: who may ask for tokens, and for which scopes. */
export interface ApiClient {
  clientId: string;
  name: string;
  secretHash: string;
  /** The scopes the client was created with; a token gets at most these. */
  scopes: string[];
  createdAt: string;
  revokedAt?: string;
}

/** The client items, and the brute-force brake's counters of each client (per source address). */
export interface ClientStore extends AttemptCounter {
  get(clientId: string): Promise<ApiClient | undefined>;
  /** Creates or replaces a client (replacing is how local mode refreshes its development client). */
  put(client: ApiClient): Promise<void>;
  list(): Promise<ApiClient[]>;
  revoke(clientId: string, at: string): Promise<boolean>;
  /** Forgets the brake's counters of every source (an operator unlocking a client); false when the client does not exist. */
  clearAttempts(clientId: string): Promise<boolean>;
}
