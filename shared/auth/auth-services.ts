import { config } from '../config';
import { FileSigningKeys, KmsSigningKeys, type SigningKeys } from './signing-keys';
import { createTokenVerifier } from './tokens';

/** Signing keys and verifier of this function instance, created on first use. */
let keys: SigningKeys | undefined;
let verifier: ReturnType<typeof createTokenVerifier> | undefined;
let publishedVerifier: ReturnType<typeof createTokenVerifier> | undefined;

export function signingKeys(): SigningKeys {
  if (keys) return keys;
  const kmsKeys = config.signingKeyArn?.split(',').filter(Boolean);
  if (kmsKeys?.length) return (keys = new KmsSigningKeys(kmsKeys as [string, ...string[]]));
  if (config.signingKeyFile) return (keys = new FileSigningKeys(config.signingKeyFile));
  throw new Error('Neither SIGNING_KEY_ARN nor SIGNING_KEY_FILE is set');
}

export const tokenSettings = () => ({
  issuer: config.tokenIssuer,
  audience: config.tokenAudience,
  ttlSeconds: config.tokenTtlSeconds,
});

export const tokenVerifier = () => (verifier ??= createTokenVerifier(signingKeys(), tokenSettings()));

/**
 * The authorizer's verifier. It needs public keys only: in AWS it reads them from the issuer's
 * JWKS endpoint over HTTPS (cached per instance, re-read for an unknown `kid`), so the authorizer
 * carries no KMS client (27 KB) and needs no KMS permission; locally from the key file.
 */
export const publishedKeysVerifier = () =>
  (publishedVerifier ??= createTokenVerifier(config.signingKeyFile ? new FileSigningKeys(config.signingKeyFile) : undefined, tokenSettings()));
