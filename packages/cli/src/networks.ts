import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: its app.json is the default plugin configuration of every mode. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Default configuration of each network this distribution ships (crypto, peers, delegates, env). */
export const networksDirectory = fileURLToPath(new URL('../networks/', import.meta.url));

export const DEFAULT_NETWORK = 'testnet';

export function knownNetworks(): string[] {
  return readdirSync(networksDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A network's own app.json when it ships one (testnet allows forging alone), else the default. */
export function defaultAppFile(network: string): string {
  const own = join(networksDirectory, network, 'app.json');
  return existsSync(own) ? own : join(repositoryRoot, 'app.json');
}
