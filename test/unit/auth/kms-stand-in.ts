import { createHash, constants, privateEncrypt, type KeyObject } from 'node:crypto';
import type { SignCommandInput } from '@aws-sdk/client-kms';

/** DER prefix of PKCS#1 v1.5's DigestInfo for SHA-256 (RFC 8017 §9.2, note 1); the 32-byte digest follows. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** KMS's limit on a RAW message: "To sign a larger message, provide a message digest." */
export const KMS_RAW_MESSAGE_LIMIT = 4096;

/**
 * What KMS Sign does with RSASSA_PKCS1_V1_5_SHA_256, including its refusals: a RAW message over
 * 4096 bytes, a DIGEST that is not 32 bytes. The signature is computed from the digest alone, as
 * KMS does, so a test learns whether the caller's digest is the SHA-256 of the signing input.
 */
export function kmsSign({ Message, MessageType = 'RAW', SigningAlgorithm }: SignCommandInput, key: KeyObject): Uint8Array {
  if (SigningAlgorithm !== 'RSASSA_PKCS1_V1_5_SHA_256') throw kmsValidationError(`unexpected SigningAlgorithm ${SigningAlgorithm}`);
  const message = Buffer.from(Message!);
  if (MessageType === 'RAW' && message.length > KMS_RAW_MESSAGE_LIMIT) {
    throw kmsValidationError("1 validation error detected: Value at 'message' failed to satisfy constraint: Member must have length less than or equal to 4096");
  }
  if (MessageType === 'DIGEST' && message.length !== 32) throw kmsValidationError('Digest is invalid length for algorithm RSASSA_PKCS1_V1_5_SHA_256.');
  const digest = MessageType === 'DIGEST' ? message : createHash('sha256').update(message).digest();
  return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, digest]));
}

const kmsValidationError = (message: string) => Object.assign(new Error(message), { name: 'ValidationException' });
