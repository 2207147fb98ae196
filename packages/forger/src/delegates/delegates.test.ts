import { Crypto, Identities } from '@arkecosystem/crypto';
import { keysFromPassphrase } from '@lni/crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptBip38, encryptBip38 } from './bip38.js';
import { readDelegateKeys } from './delegate-secrets.js';
import { checkDelegatesFile } from './delegates-file.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'lni-delegates-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function delegatesFile(content: unknown): Promise<string> {
  const file = join(directory, `delegates-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('BIP38 delegate secrets', () => {
  it('decrypts what ARK 3.0 encrypted, and ARK decrypts what we encrypt', async () => {
    const privateKey = Identities.Keys.fromPassphrase('forging delegate one').privateKey;
    const arkEncrypted = Crypto.bip38.encrypt(Buffer.from(privateKey, 'hex'), true, 'pässwörd');
    expect((await decryptBip38(arkEncrypted, 'pässwörd')).toString('hex')).toBe(privateKey);

    const ours = await encryptBip38(Buffer.from(privateKey, 'hex'), 'pässwörd');
    expect(ours).toBe(arkEncrypted);
    expect(Crypto.bip38.decrypt(ours, 'pässwörd').privateKey.toString('hex')).toBe(privateKey);
  });

  it('refuses a wrong password', async () => {
    const encrypted = await encryptBip38(keysFromPassphrase('x').privateKey, 'right');
    await expect(decryptBip38(encrypted, 'wrong')).rejects.toThrow('wrong password');
  });
});

describe('delegates.json', () => {
  it('gives the key pairs of plain passphrases and of the BIP38 secret', async () => {
    const bip38 = await encryptBip38(keysFromPassphrase('third').privateKey, 'secret');
    const file = await delegatesFile({ secrets: ['first', 'second'], bip38 });
    const keys = await readDelegateKeys(file, { password: async () => 'secret' });
    expect(keys.map((pair) => pair.publicKey.toString('hex'))).toEqual(
      ['first', 'second', 'third'].map((phrase) => Identities.PublicKey.fromPassphrase(phrase)),
    );
  });

  it('stops with the file and the reason when something is wrong', async () => {
    const bip38 = await encryptBip38(keysFromPassphrase('third').privateKey, 'secret');
    const noPassword = await delegatesFile({ secrets: [], bip38 });
    await expect(readDelegateKeys(noPassword)).rejects.toThrow(
      `${noPassword}: holds a BIP38 secret but no password was given`,
    );
    await expect(readDelegateKeys(noPassword, { password: async () => 'nope' })).rejects.toThrow(
      `${noPassword}, key 'bip38': wrong password`,
    );
    const broken = await delegatesFile('{ "secrets": [');
    await expect(readDelegateKeys(broken)).rejects.toThrow(`${broken}: not valid JSON`);
    const wrongShape = await delegatesFile({ secrets: ['ok', 7] });
    await expect(readDelegateKeys(wrongShape)).rejects.toThrow('"secrets[1]" must be a string');
    const twice = await delegatesFile({ secrets: ['same', 'same'] });
    await expect(readDelegateKeys(twice)).rejects.toThrow(
      `${twice}, key 'secrets[1]': the same delegate secret as secrets[0]`,
    );
  });
});

describe('checking delegates.json with the configuration', () => {
  it('names the file, the key and the reason of every mistake', async () => {
    const shapes = await delegatesFile({ secret: ['typo of secrets'], secrets: 'one' });
    expect(await checkDelegatesFile(shapes, { canAsk: false })).toEqual([
      `${shapes}, key 'secrets': "secrets" must be an array`,
      `${shapes}, key 'secret': "secret" is not allowed`,
    ]);
    const twice = await delegatesFile({ secrets: ['a', 'b', 'a'] });
    expect(await checkDelegatesFile(twice, { canAsk: false })).toEqual([
      `${twice}, key 'secrets[2]': the same delegate secret as secrets[0]`,
    ]);
    const missing = join(directory, 'absent.json');
    expect((await checkDelegatesFile(missing, { canAsk: false }))[0]).toMatch(
      `${missing}: cannot be read (ENOENT`,
    );
  });

  it('opens the BIP38 secret with the given password, or asks later on a terminal', async () => {
    const bip38 = await encryptBip38(keysFromPassphrase('kept').privateKey, 'right');
    const file = await delegatesFile({ secrets: [], bip38 });
    expect(await checkDelegatesFile(file, { given: 'right', canAsk: false })).toEqual([]);
    expect(await checkDelegatesFile(file, { given: 'wrong', canAsk: false })).toEqual([
      `${file}, key 'bip38': wrong password for the BIP38 secret`,
    ]);
    expect(await checkDelegatesFile(file, { canAsk: true })).toEqual([]);
    expect(await checkDelegatesFile(file, { canAsk: false })).toEqual([
      `${file}: holds a BIP38 secret but no password was given (set CORE_FORGER_PASSWORD or start on a terminal to be asked)`,
    ]);
    const same = await delegatesFile({ secrets: ['kept'], bip38 });
    expect(await checkDelegatesFile(same, { given: 'right', canAsk: false })).toEqual([
      `${same}, key 'bip38': the same delegate as the plain secret secrets[0]`,
    ]);
  });
});
