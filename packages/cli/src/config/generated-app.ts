import { readAppConfig, type AppConfig } from '@lni/kernel';
import { join } from 'node:path';
import { repositoryRoot } from '../networks.js';

const FORGER = '@lni/forger';

/**
 * The app.json of a network made by network:generate: the default one, its forger allowed to
 * forge without peers (`allowSingleNode`). The generated delegates.json holds every delegate's
 * secret, so one node is the whole network until others join; with ARK's minimum network reach
 * (20 peers) it would otherwise miss every slot.
 */
export async function generatedAppConfig(): Promise<AppConfig> {
  const defaults = await readAppConfig(join(repositoryRoot, 'app.json'));
  return Object.fromEntries(
    Object.entries(defaults).map(([mode, config]) => [
      mode,
      {
        plugins: config.plugins.map((entry) =>
          entry.package === FORGER
            ? { ...entry, options: { ...entry.options, allowSingleNode: true } }
            : entry,
        ),
      },
    ]),
  );
}
