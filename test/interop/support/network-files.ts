import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArkInstallation } from './ark-install.js';
import { P2P_PORT } from './interop-node.js';

// The files of ARK 3.x's config layout that ARK and LNI nodes of one test network share.

/** ARK testnet's network.json, milestones.json, genesisBlock.json and exceptions.json. */
export async function copyArkTestnetCrypto(ark: ArkInstallation, config: string): Promise<void> {
  await mkdir(join(config, 'crypto'), { recursive: true });
  await cp(ark.testnetCrypto, join(config, 'crypto'), {
    recursive: true,
    filter: (source) => source === ark.testnetCrypto || source.endsWith('.json'),
  });
}

export async function writeDelegates(config: string, secrets: readonly string[]): Promise<void> {
  await writeJson(join(config, 'delegates.json'), { secrets });
}

/** peers.json with each address on the network's P2P port (ARK ignores any other port). */
export async function writePeers(config: string, addresses: readonly string[]): Promise<void> {
  await writeJson(join(config, 'peers.json'), {
    list: addresses.map((ip) => ({ ip, port: P2P_PORT })),
  });
}

/** Indented JSON, the way ARK's and LNI's own config files look. */
export async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}
