import { parseJson } from '@lni/kernel';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publishConfig } from '../config/publish.js';
import type { LocalNodePlan } from './plan.js';

/** The variables a local node runs with: its ports, loopback only (a core node's forger follows its P2P port). */
export function localNodeEnvironment(node: LocalNodePlan): Record<string, string> {
  return {
    // So that `kernel start --config DIR/node-i/config` restarts the node without --mode.
    CORE_MODE: node.mode,
    CORE_P2P_HOST: '127.0.0.1',
    CORE_P2P_PORT: String(node.p2pPort),
    CORE_API_HOST: '127.0.0.1',
    CORE_API_PORT: String(node.apiPort),
  };
}

/**
 * Writes a node's configuration directory: the network's defaults (kept if already there), a
 * `.env` with its ports (so `kernel start --config` restarts it alone), its peers.json, and p2p
 * options for one machine (`allowLoopbackPeers`).
 */
export async function prepareLocalNode(node: LocalNodePlan, network: string): Promise<void> {
  await publishConfig({ network, configDir: node.config });
  const env = Object.entries(localNodeEnvironment(node))
    .map(([key, value]) => `${key}=${value}\n`)
    .join('');
  await writeFile(join(node.config, '.env'), env);
  await writeFile(
    join(node.config, 'peers.json'),
    `${JSON.stringify({ list: node.peers }, null, 2)}\n`,
  );
  await allowLoopbackPeers(join(node.config, 'app.json'));
}

type AppJson = Record<
  string,
  { plugins: { package: string; options?: Record<string, unknown> }[] }
>;

/**
 * Sets the p2p plugin's options in an app.json for nodes sharing one machine: loopback peers
 * accepted and exempt from the per-IP connection limits (loopback is already exempt from the
 * message rate limits by default).
 */
export async function allowLoopbackPeers(file: string): Promise<void> {
  const app = parseJson(await readFile(file, 'utf8'), file) as AppJson;
  for (const mode of Object.values(app)) {
    for (const entry of mode.plugins) {
      if (entry.package !== '@lni/p2p') continue;
      const options = entry.options ?? {};
      const connections = (options.connections ?? {}) as Record<string, unknown>;
      entry.options = {
        ...options,
        acceptLocalPeers: true,
        // Every node and the forger connect from 127.0.0.1: one IP, many legitimate peers.
        connections: { ...connections, exempt: ['127.0.0.1', '::1'] },
      };
    }
  }
  await writeFile(file, `${JSON.stringify(app, null, 2)}\n`);
}
