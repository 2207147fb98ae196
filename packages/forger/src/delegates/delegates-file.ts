import { keysFromPassphrase, keysFromPrivateKey, type KeyPair } from '@lni/crypto';
import Joi from 'joi';
import { readFile } from 'node:fs/promises';
import { Bip38Error, decryptBip38 } from './bip38.js';

/** delegates.json as ARK 3.0 writes it: plain passphrases, and/or one BIP38-encrypted secret. */
export interface DelegatesFile {
  readonly secrets: readonly string[];
  readonly bip38?: string;
}

// Only ARK's two keys: a misspelt `secret` must not read as "no delegates".
const delegatesFileSchema = Joi.object<DelegatesFile>({
  secrets: Joi.array().items(Joi.string().trim().min(1)).default([]),
  bip38: Joi.string().pattern(/^6P[1-9A-HJ-NP-Za-km-z]{56}$/, 'BIP38'),
});

/** The file's content, or every problem in it, each naming the file, the key and the reason. */
export type DelegatesFileReading =
  | { readonly content: DelegatesFile; readonly problems?: undefined }
  | { readonly content?: undefined; readonly problems: readonly string[] };

export async function readDelegatesFile(file: string): Promise<DelegatesFileReading> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { problems: [`${file}: cannot be read (${(error as Error).message})`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [`${file}: not valid JSON (${(error as Error).message})`] };
  }
  const { value, error } = delegatesFileSchema.validate(json, { abortEarly: false });
  if (error) {
    return {
      problems: error.details.map((detail) => {
        const label = detail.context?.label ?? detail.path.join('.');
        const key = detail.path.length > 0 ? `, key '${label}'` : '';
        return `${file}${key}: ${detail.message}`;
      }),
    };
  }
  const duplicates = duplicateSecrets(value.secrets).map(
    ([first, again]) =>
      `${file}, key 'secrets[${again}]': the same delegate secret as secrets[${first}]`,
  );
  return duplicates.length > 0 ? { problems: duplicates } : { content: value };
}

/** The BIP38 secret's key pair; a problem naming the file when the password does not open it. */
export async function decryptDelegateSecret(
  file: string,
  bip38: string,
  password: string,
): Promise<KeyPair | string> {
  try {
    return keysFromPrivateKey(await decryptBip38(bip38, password));
  } catch (error) {
    if (error instanceof Bip38Error) return `${file}, key 'bip38': ${error.message}`;
    throw error;
  }
}

export const MISSING_BIP38_PASSWORD =
  'holds a BIP38 secret but no password was given (set CORE_FORGER_PASSWORD or start on a terminal to be asked)';

/**
 * The forger's configuration check, run with the rest of the configuration before anything is
 * written: delegates.json readable, of ARK's shape, no secret twice, and the BIP38 secret
 * opened by its password when one is given (asked on a terminal otherwise, at boot).
 */
export async function checkDelegatesFile(
  file: string,
  bip38Password: { readonly given?: string | undefined; readonly canAsk: boolean },
): Promise<readonly string[]> {
  const reading = await readDelegatesFile(file);
  if (reading.problems) return reading.problems;
  const { bip38, secrets } = reading.content;
  if (bip38 === undefined) return [];
  if (bip38Password.given === undefined || bip38Password.given === '') {
    return bip38Password.canAsk ? [] : [`${file}: ${MISSING_BIP38_PASSWORD}`];
  }
  const opened = await decryptDelegateSecret(file, bip38, bip38Password.given);
  if (typeof opened === 'string') return [opened];
  const publicKey = opened.publicKey.toString('hex');
  const same = secrets.findIndex((secret) => publicKeyOf(secret) === publicKey);
  return same < 0
    ? []
    : [`${file}, key 'bip38': the same delegate as the plain secret secrets[${same}]`];
}

/** Pairs of indexes `[first, again]` of secrets that give the same delegate. */
function duplicateSecrets(secrets: readonly string[]): [number, number][] {
  const firstIndex = new Map<string, number>();
  const pairs: [number, number][] = [];
  secrets.forEach((secret, index) => {
    const key = publicKeyOf(secret);
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    else pairs.push([first, index]);
  });
  return pairs;
}

function publicKeyOf(passphrase: string): string {
  return keysFromPassphrase(passphrase).publicKey.toString('hex');
}
