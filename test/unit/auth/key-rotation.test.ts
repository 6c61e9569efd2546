import { createPublicKey, generateKeyPairSync, sign as signWithKey, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KmsSigningKeys, toPublicJwk, type PublicJwk, type SigningKeys } from '../../../shared/auth/signing-keys';
import { createTokenVerifier } from '../../../shared/auth/token-verifier';
import { issueAccessToken } from '../../../shared/auth/tokens';
import { kmsSign } from './kms-stand-in';

/**
 * Signing-key rotation (docs/security.md): SIGNING_KEY_ARN lists the keys, the first signs and all
 * are published. A token signed by an older key keeps verifying while it is listed.
 */

const SETTINGS = { issuer: 'https://auth.example.test', audience: 'generic-resource-service', ttlSeconds: 3600 };
const GRANT = { clientId: 'client-1', scopes: ['manage_test:demo'] };

const newKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid as string;

/** SigningKeys over an ordered list of private keys that a test can rotate, like a redeploy would. */
class RotatingKeys implements SigningKeys {
  constructor(public keys: [KeyObject, ...KeyObject[]]) {}
  async sign(data: Buffer) {
    return { kid: toPublicJwk(createPublicKey(this.keys[0])).kid, signature: signWithKey('sha256', data, this.keys[0]) };
  }
  async publicJwks(): Promise<{ keys: PublicJwk[] }> {
    return { keys: this.keys.map((key) => toPublicJwk(createPublicKey(key))) };
  }
}

describe('rotation with an ordered key list: the first signs, all verify', () => {
  const older = newKey();
  const newer = newKey();

  it('a token of the older key still verifies after the newer key took over signing', async () => {
    const keys = new RotatingKeys([older]);
    const { token: oldToken } = await issueAccessToken(keys, SETTINGS, GRANT);

    keys.keys = [newer, older]; // step 1: the new key first, the old one still published
    const verify = createTokenVerifier(keys, SETTINGS);
    await expect(verify(oldToken)).resolves.toMatchObject({ client_id: 'client-1' });

    const { token: newToken } = await issueAccessToken(keys, SETTINGS, GRANT);
    expect(kidOf(newToken)).toBe(toPublicJwk(createPublicKey(newer)).kid);
    expect(kidOf(newToken)).not.toBe(kidOf(oldToken));
    await expect(verify(newToken)).resolves.toMatchObject({ scope: 'manage_test:demo' });
  });

  it('a verifier that cached the old key set learns the new key from its kid (no restart)', async () => {
    const keys = new RotatingKeys([older]);
    const verify = createTokenVerifier(keys, SETTINGS);
    await verify((await issueAccessToken(keys, SETTINGS, GRANT)).token); // caches [older]

    keys.keys = [newer, older];
    await expect(verify((await issueAccessToken(keys, SETTINGS, GRANT)).token)).resolves.toBeDefined();
  });

  it('once the older key is retired, its tokens are refused and the newer ones are not', async () => {
    const keys = new RotatingKeys([newer, older]);
    const { token: newToken } = await issueAccessToken(keys, SETTINGS, GRANT);
    const oldToken = (await issueAccessToken(new RotatingKeys([older]), SETTINGS, GRANT)).token;

    keys.keys = [newer]; // step 2: after the longest token lifetime
    const verify = createTokenVerifier(keys, SETTINGS);
    await expect(verify(oldToken)).rejects.toThrow();
    await expect(verify(newToken)).resolves.toBeDefined();
  });
});

describe('KmsSigningKeys with SIGNING_KEY_ARN = "<new>,<old>"', () => {
  afterEach(() => vi.restoreAllMocks());

  it('signs with the first key only and publishes both, so tokens of either verify', async () => {
    const byArn = { 'arn:new': newKey(), 'arn:old': newKey() } as Record<string, KeyObject>;
    const signedWith: string[] = [];
    vi.spyOn(KMSClient.prototype, 'send').mockImplementation(async (command: unknown) => {
      if (command instanceof GetPublicKeyCommand) {
        return { PublicKey: createPublicKey(byArn[command.input.KeyId!]!).export({ type: 'spki', format: 'der' }) };
      }
      if (command instanceof SignCommand) {
        signedWith.push(command.input.KeyId!);
        return { Signature: kmsSign(command.input, byArn[command.input.KeyId!]!) };
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    });

    const rotated = new KmsSigningKeys(['arn:new', 'arn:old'], new KMSClient({}));
    const { keys: published } = await rotated.publicJwks();
    expect(published.map((jwk) => jwk.kid)).toEqual(['arn:new', 'arn:old'].map((arn) => toPublicJwk(createPublicKey(byArn[arn]!)).kid));

    const { token: newToken } = await issueAccessToken(rotated, SETTINGS, GRANT);
    expect(signedWith).toEqual(['arn:new']);
    expect(kidOf(newToken)).toBe(published[0]!.kid);

    // A token the old key signed before the rotation (when it was the only key).
    const { token: oldToken } = await issueAccessToken(new KmsSigningKeys(['arn:old'], new KMSClient({})), SETTINGS, GRANT);
    expect(kidOf(oldToken)).toBe(published[1]!.kid);

    const verify = createTokenVerifier(rotated, SETTINGS);
    await expect(verify(newToken)).resolves.toBeDefined();
    await expect(verify(oldToken)).resolves.toBeDefined();
    await expect(createTokenVerifier(new KmsSigningKeys(['arn:new'], new KMSClient({})), SETTINGS)(oldToken)).rejects.toThrow();
  });
});
