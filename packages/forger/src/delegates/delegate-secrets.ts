import { ConfigError } from '@lni/kernel';
import { keysFromPassphrase, keysFromPrivateKey, type KeyPair } from '@lni/crypto';
import Joi from 'joi';
import { readFile } from 'node:fs/promises';
import { decryptBip38, Bip38Error } from './bip38.js';

/** delegates.json as ARK 3.0 writes it: plain passphrases, and/or one BIP38-encrypted secret. */
export interface DelegatesFile {
  readonly secrets: readonly string[];
  readonly bip38?: string;
}

const delegatesFileSchema = Joi.object<DelegatesFile>({
  secrets: Joi.array().items(Joi.string().trim().min(1)).default([]),
  bip38: Joi.string().pattern(/^6P[1-9A-HJ-NP-Za-km-z]{56}$/, 'BIP38'),
}).unknown(true);

export interface DelegateSecretsSources {
  /** The password of the BIP38 secret, from the environment or an interactive prompt. */
  readonly password?: () => Promise<string | undefined>;
}

/** Reads the key pairs of the delegates this node forges for; a mistake names file and entry. */
export async function readDelegateKeys(
  file: string,
  sources: DelegateSecretsSources = {},
): Promise<KeyPair[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot be read (${(error as Error).message})`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const { value, error } = delegatesFileSchema.validate(json, { abortEarly: false });
  if (error) throw new ConfigError(`${file}: ${error.message}`);

  const keys = value.secrets.map((secret) => keysFromPassphrase(secret));
  if (value.bip38 !== undefined) {
    const password = await sources.password?.();
    if (password === undefined || password === '') {
      throw new ConfigError(
        `${file}: holds a BIP38 secret but no password was given (set CORE_FORGER_PASSWORD or start on a terminal to be asked)`,
      );
    }
    try {
      keys.push(keysFromPrivateKey(await decryptBip38(value.bip38, password)));
    } catch (error) {
      if (error instanceof Bip38Error) throw new ConfigError(`${file}: bip38: ${error.message}`);
      throw error;
    }
  }
  const unique = new Map(keys.map((pair) => [pair.publicKey.toString('hex'), pair]));
  if (unique.size !== keys.length) {
    throw new ConfigError(`${file}: the same delegate secret is listed more than once`);
  }
  return [...unique.values()];
}
