import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** The local token signing key: made once under the data dir, so tokens survive restarts. */
export async function ensureLocalSigningKey(dataDir: string): Promise<string> {
  const file = resolve(dataDir, 'signing-key.pem');
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  return file;
}
