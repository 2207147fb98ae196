import { loadSeedList, OutgoingThrottle, PeerClient, PeerConnection } from '@lni/p2p/client';

/** What the network's peers said of the snapshot's last block. */
export interface PeerVerdict {
  /** Peers that hold the block at its height. */
  readonly confirmed: readonly string[];
  /** Peers that answered without it (another chain, or not that high yet). */
  readonly lacking: readonly string[];
  /** Peers that did not answer. */
  readonly unreachable: readonly string[];
}

/**
 * Asks each configured peer (`peers.json`) with ARK's getCommonBlocks whether it holds the
 * block `id` at `height`: the snapshot's tip must be on the network's chain before it is used.
 */
export async function askPeers(
  configDirectory: string,
  block: { readonly id: string; readonly height: number },
  version: string,
  timeoutMs = 5_000,
): Promise<PeerVerdict> {
  const seeds = await loadSeedList(configDirectory);
  const confirmed: string[] = [];
  const lacking: string[] = [];
  const unreachable: string[] = [];
  await Promise.all(
    seeds.map(async ({ ip, port }) => {
      const address = `${ip}:${port}`;
      let connection: PeerConnection | undefined;
      try {
        connection = await PeerConnection.open(`ws://${address}`, { address, timeoutMs });
        const client = new PeerClient({
          ip,
          port,
          connection,
          headers: { version },
          throttle: new OutgoingThrottle(),
        });
        const { common } = await client.commonBlocks([block.id], timeoutMs);
        const holds = common?.id === block.id && common.height === block.height;
        (holds ? confirmed : lacking).push(address);
      } catch {
        unreachable.push(address);
      } finally {
        connection?.close('snapshot check done');
      }
    }),
  );
  return { confirmed, lacking, unreachable };
}
