import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The passphrases of a network's genesis delegates, from `delegates.json` in its config directory. */
export async function delegateSecrets(configDir: string): Promise<string[]> {
  const file = JSON.parse(await readFile(join(configDir, 'delegates.json'), 'utf8')) as {
    secrets: string[];
  };
  return file.secrets;
}
