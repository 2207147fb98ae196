import { ensureWritableDirectory } from '@lni/kernel';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultAppFile, isShippedNetworkIn } from '../networks.js';
import { publishConfig } from './publish.js';

/**
 * A network this distribution ships gets its whole default configuration; any other network
 * (its crypto files already in the directory) gets only the default app.json of the modes.
 */
export async function firstRun(network: string, configDir: string): Promise<void> {
  ensureWritableDirectory(configDir, 'config directory');
  if (isShippedNetworkIn(network, configDir)) {
    const published = await publishConfig({ network, configDir });
    process.stdout.write(
      `First run: published the default configuration of ${network} into ${configDir} (${published.written.join(', ')})\n`,
    );
    return;
  }
  await copyFile(defaultAppFile(network), join(configDir, 'app.json'));
  process.stdout.write(
    `First run: wrote the default app.json into ${configDir}; network ${network} runs on the crypto files there\n`,
  );
}
