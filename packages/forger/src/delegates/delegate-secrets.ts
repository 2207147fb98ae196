import { ConfigError } from '@lni/kernel';
import { keysFromPassphrase, type KeyPair } from '@lni/crypto';
import {
  decryptDelegateSecret,
  MISSING_BIP38_PASSWORD,
  readDelegatesFile,
} from './delegates-file.js';

export interface DelegateSecretsSources {
  /** The password of the BIP38 secret, from the environment or an interactive prompt. */
  readonly password?: () => Promise<string | undefined>;
}

/** Reads the key pairs of the delegates this node forges for; a mistake names file and entry. */
export async function readDelegateKeys(
  file: string,
  sources: DelegateSecretsSources = {},
): Promise<KeyPair[]> {
  const reading = await readDelegatesFile(file);
  if (reading.problems) throw new ConfigError(reading.problems.join('\n'));
  const { secrets, bip38 } = reading.content;
  const keys = secrets.map((secret) => keysFromPassphrase(secret));
  if (bip38 !== undefined) {
    const password = await sources.password?.();
    if (password === undefined || password === '') {
      throw new ConfigError(`${file}: ${MISSING_BIP38_PASSWORD}`);
    }
    const opened = await decryptDelegateSecret(file, bip38, password);
    if (typeof opened === 'string') throw new ConfigError(opened);
    if (keys.some((pair) => pair.publicKey.equals(opened.publicKey))) {
      throw new ConfigError(`${file}, key 'bip38': the same delegate as one of the plain secrets`);
    }
    keys.push(opened);
  }
  return keys;
}
