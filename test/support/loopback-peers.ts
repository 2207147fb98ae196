import { allowLoopbackPeers } from '@lni/cli';
import { runKernel } from '@lni/cli/testing';
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `kernel config:publish` into `configDir`, as an operator does before a first start. */
export async function publishConfig(configDir: string): Promise<void> {
  const run = runKernel(['config:publish', '--network', 'testnet', '--config', configDir]);
  const { code } = await run.exited();
  if (code !== 0) throw new Error(`config:publish failed: ${run.stdout()} ${run.stderr()}`);
}

/**
 * Makes a published config directory a node among others on 127.0.0.1: its seed peers, and
 * p2p options for one machine (loopback peers accepted and exempt from per-IP connection limits,
 * since every node connects from the same address).
 */
export async function joinLoopback(
  configDir: string,
  peers: readonly { ip: string; port: number }[],
): Promise<void> {
  await writeFile(join(configDir, 'peers.json'), `${JSON.stringify({ list: peers })}\n`);
  await allowLoopbackPeers(join(configDir, 'app.json'));
}

/** A second node of the same network: the first one's config (same genesis and delegates). */
export async function copyConfig(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
}
