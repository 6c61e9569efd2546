import { createHash, createPublicKey, generateKeyPairSync, sign as signWithKey, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, KMSClient, SignCommand, type SignCommandInput } from '@aws-sdk/client-kms';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KmsSigningKeys } from '../../../shared/auth/signing-keys';
import { createTokenVerifier } from '../../../shared/auth/token-verifier';
import { issueAccessToken } from '../../../shared/auth/tokens';
import { KMS_RAW_MESSAGE_LIMIT, kmsSign } from './kms-stand-in';

/**
 * KmsSigningKeys sends KMS the SHA-256 digest of the signing input, not the input: KMS refuses a RAW
 * message over 4096 bytes, and a client with many or long project scopes has a longer one.
 */

const SETTINGS = { issuer: 'https://auth.example.test', audience: 'generic-resource-service', ttlSeconds: 3600 };
const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/token-signing';

let privateKey: KeyObject;
let sent: SignCommandInput[];

beforeEach(() => {
  privateKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  sent = [];
  vi.spyOn(KMSClient.prototype, 'send').mockImplementation(async (command: unknown) => {
    if (command instanceof GetPublicKeyCommand) return { PublicKey: createPublicKey(privateKey).export({ type: 'spki', format: 'der' }) };
    if (command instanceof SignCommand) {
      sent.push(command.input);
      return { Signature: kmsSign(command.input, privateKey) };
    }
    throw new Error(`unexpected command ${(command as object).constructor.name}`);
  });
});

afterEach(() => vi.restoreAllMocks());

const kmsKeys = () => new KmsSigningKeys([KEY_ARN], new KMSClient({}));
const signingInputOf = (token: string) => token.slice(0, token.lastIndexOf('.'));

describe('KmsSigningKeys.sign', () => {
  it('sends the 32-byte SHA-256 digest as DIGEST, and the signature is the one RS256 makes of the input', async () => {
    const input = Buffer.from('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjbGllbnQtMSJ9');
    const { signature } = await kmsKeys().sign(input);

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ KeyId: KEY_ARN, MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' });
    expect(Buffer.from(sent[0]!.Message!)).toEqual(createHash('sha256').update(input).digest());
    // PKCS#1 v1.5 is deterministic: byte for byte what signing the whole input (RAW, or a local key) gives.
    expect(signature).toEqual(signWithKey('sha256', input, privateKey));
  });

  it('issues a verifiable token for a client whose scopes make the signing input longer than KMS takes RAW', async () => {
    // 40 projects with 40-character keys, manage_test and view_test on each.
    const projects = Array.from({ length: 40 }, (_, index) => `project-${String(index).padStart(2, '0')}-`.padEnd(40, 'x'));
    const scopes = projects.flatMap((project) => [`manage_test:${project}`, `view_test:${project}`]);
    const keys = kmsKeys();

    const { token } = await issueAccessToken(keys, SETTINGS, { clientId: 'client-with-many-projects', scopes });

    expect(Buffer.byteLength(signingInputOf(token))).toBeGreaterThan(KMS_RAW_MESSAGE_LIMIT);
    expect(Buffer.from(sent[0]!.Message!)).toHaveLength(32);
    await expect(createTokenVerifier(keys, SETTINGS)(token)).resolves.toMatchObject({ scope: scopes.join(' ') });
  });

  it('the stand-in refuses a RAW message over 4096 bytes, as KMS does (what the service sent before)', () => {
    const raw = (message: Buffer): SignCommandInput => ({ KeyId: KEY_ARN, Message: message, MessageType: 'RAW', SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' });
    const input = Buffer.alloc(KMS_RAW_MESSAGE_LIMIT + 1, 'a');
    expect(() => kmsSign(raw(input), privateKey)).toThrow(expect.objectContaining({ name: 'ValidationException' }));
    expect(Buffer.from(kmsSign(raw(input.subarray(1)), privateKey))).toEqual(signWithKey('sha256', input.subarray(1), privateKey));
  });
});
