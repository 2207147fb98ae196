import { KernelError } from '@lni/kernel';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** A network name this distribution does not ship, refused with the ones it does. */
export function unknownNetworkError(network: string): KernelError {
  return new KernelError(
    'ERR_UNKNOWN_NETWORK',
    `unknown network '${network}' (known: ${knownNetworks().join(', ')})`,
  );
}

/** A network's own app.json when it ships one (testnet allows forging alone), else the default. */
export function defaultAppFile(network: string): string {
  const own = join(networksDirectory, network, 'app.json');
  return existsSync(own) ? own : join(repositoryRoot, 'app.json');
}

/** Whether the config directory holds a network's crypto files (ARK 3.0 layout). */
export function holdsNetworkFiles(configDir: string): boolean {
  return existsSync(join(configDir, 'crypto', 'network.json'));
}

/**
 * The name in `<config>/crypto/network.json`, when the directory already holds a network (one
 * generated, or an ARK 3.0 network's files copied in): it names the node's network in logs and
 * its default data directory.
 */
/**
 * Whether `network` is one this distribution ships and `configDir` holds that network, not
 * another of the same name (ARK's own testnet is called `testnet` too): its crypto files are
 * missing or carry the shipped nethash. Only then are the shipped defaults published there.
 */
export function isShippedNetworkIn(network: string, configDir: string): boolean {
  if (!knownNetworks().includes(network)) return false;
  const present = nethashIn(configDir);
  return present === undefined || present === nethashIn(join(networksDirectory, network));
}

function nethashIn(configDir: string): string | undefined {
  const file = join(configDir, 'crypto', 'network.json');
  if (!existsSync(file)) return undefined;
  try {
    const { nethash } = JSON.parse(readFileSync(file, 'utf8')) as { nethash?: unknown };
    return typeof nethash === 'string' ? nethash : '';
  } catch {
    // Unreadable: not the shipped file; the state plugin reports it when it loads it.
    return '';
  }
}

export function networkNameIn(configDir: string): string | undefined {
  const file = join(configDir, 'crypto', 'network.json');
  if (!existsSync(file)) return undefined;
  try {
    const { name } = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
    return typeof name === 'string' && /^[\w.-]+$/.test(name) ? name : undefined;
  } catch {
    // Unreadable here; the state plugin reports the file and the reason when it loads it.
    return undefined;
  }
}
