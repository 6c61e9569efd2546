import { createHash, createPrivateKey, createPublicKey, sign as signWithKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GetPublicKeyCommand, SignCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { JsonWebKey } from 'node:crypto';

export interface PublicJwk extends JsonWebKey {
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/**
 * The keys that sign access tokens (RS256). In AWS a KMS asymmetric key signs and never leaves
 * KMS; on a laptop a PEM file does. Both publish their public halves as a JWKS that the
 * authorizer verifies against. `kid` is the key's RFC 7638 thumbprint in both cases.
 */
export interface SigningKeys {
  sign(data: Buffer): Promise<{ kid: string; signature: Buffer }>;
  publicJwks(): Promise<{ keys: PublicJwk[] }>;
}

export function toPublicJwk(publicKey: KeyObject): PublicJwk {
  const { n, e } = publicKey.export({ format: 'jwk' });
  // RFC 7638: the thumbprint hashes the required members in lexicographic order.
  const kid = createHash('sha256').update(JSON.stringify({ e, kty: 'RSA', n })).digest('base64url');
  return { kty: 'RSA', n, e, kid, alg: 'RS256', use: 'sig' };
}

/** Local mode: a PEM private key on disk (created by the local start script). */
export class FileSigningKeys implements SigningKeys {
  private readonly privateKey: KeyObject;
  private readonly jwk: PublicJwk;

  constructor(pemFile: string) {
    this.privateKey = createPrivateKey(readFileSync(pemFile));
    this.jwk = toPublicJwk(createPublicKey(this.privateKey));
  }

  async sign(data: Buffer) {
    return { kid: this.jwk.kid, signature: signWithKey('sha256', data, this.privateKey) };
  }

  async publicJwks() {
    return { keys: [this.jwk] };
  }
}

/** AWS: KMS keys. The first signs; the others stay published (rotation) until the tokens they signed have expired. Public keys are fetched once per function instance. */
export class KmsSigningKeys implements SigningKeys {
  private jwks?: Promise<PublicJwk[]>;

  constructor(
    private readonly keyIds: [string, ...string[]],
    private readonly kms: KMSClient,
  ) {}

  async sign(data: Buffer) {
    const [current] = await this.publicKeys();
    // KMS refuses a RAW message over 4096 bytes (a client with many scopes has a longer signing
    // input); for RSASSA_PKCS1_V1_5_SHA_256 a SHA-256 digest signed as DIGEST is the same signature.
    const digest = createHash('sha256').update(data).digest();
    const { Signature } = await this.kms.send(
      new SignCommand({ KeyId: this.keyIds[0], Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' }),
    );
    return { kid: current!.kid, signature: Buffer.from(Signature!) };
  }

  async publicJwks() {
    return { keys: await this.publicKeys() };
  }

  private publicKeys(): Promise<PublicJwk[]> {
    this.jwks ??= Promise.all(
      this.keyIds.map(async (KeyId) => {
        const { PublicKey } = await this.kms.send(new GetPublicKeyCommand({ KeyId }));
        return toPublicJwk(createPublicKey({ key: Buffer.from(PublicKey!), format: 'der', type: 'spki' }));
      }),
    ).catch((error) => {
      this.jwks = undefined; // let the next call try again
      throw error;
    });
    return this.jwks;
  }
}
