import { RemovalPolicy } from 'aws-cdk-lib';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';

/**
 * The KMS keys that sign tokens, one per version named in `-c signingKeys=<v>[,<v>…]` (default `1`):
 * the first signs, all are published in the JWKS and accepted. Rotation edits that context value,
 * not the code (docs/security.md, "Signing-key rotation"). Version 1 keeps the construct id the
 * stack always had (`TokenSigningKey`), so existing deployments keep their key; version `n` is
 * `TokenSigningKeyV<n>`. A version removed from the list leaves the stack, and its key is retained.
 */
export function createSigningKeys(scope: Construct, versions: readonly string[], description: string): [Key, ...Key[]] {
  if (versions.length === 0) throw new Error('-c signingKeys needs at least one version, e.g. 1');
  if (new Set(versions).size !== versions.length) throw new Error(`-c signingKeys names a version twice: ${versions.join(',')}`);
  const keys = versions.map((version) => {
    if (!/^[1-9]\d{0,3}$/.test(version)) throw new Error(`Signing key version '${version}' is not a number from 1 to 9999 (-c signingKeys=2,1).`);
    return new Key(scope, version === '1' ? 'TokenSigningKey' : `TokenSigningKeyV${version}`, {
      keySpec: KeySpec.RSA_2048,
      keyUsage: KeyUsage.SIGN_VERIFY,
      description: version === '1' ? description : `${description} (version ${version})`,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  });
  return keys as [Key, ...Key[]];
}

/** `-c signingKeys=2,1` → ['2', '1']. */
export const parseSigningKeyVersions = (value: string | undefined): string[] =>
  (value ?? '1').split(',').map((version) => version.trim()).filter(Boolean);
