import type { BlockHeader, BlockReference } from '@lni/crypto';
import type { PeerClient } from '../peers/peer-client.js';
import type { StatusReply } from '../wire/messages.js';

/** A peer as sync sees it: its height, and whether its chain holds our last block. */
export interface PeerOnChain {
  readonly client: PeerClient;
  readonly height: number;
  readonly onOurChain: boolean;
}

export type SyncPlan =
  | { readonly kind: 'none' }
  /** Download from `sources`, highest first: they are ahead on our chain. */
  | { readonly kind: 'follow'; readonly sources: readonly PeerOnChain[] }
  /** Most peers follow another chain: roll back to the block in common, then download. */
  | { readonly kind: 'fork'; readonly sources: readonly PeerOnChain[] };

/**
 * Which chain to follow. Peers ahead on our chain are followed. When none is and the peers of
 * another, longer chain outnumber those on ours (at our height or above), that chain wins.
 */
export function chooseSyncPlan(ourHeight: number, peers: readonly PeerOnChain[]): SyncPlan {
  const byHeight = (a: PeerOnChain, b: PeerOnChain) => b.height - a.height;
  const ahead = peers.filter((peer) => peer.onOurChain && peer.height > ourHeight).sort(byHeight);
  if (ahead.length > 0) return { kind: 'follow', sources: ahead };
  const withUs = peers.filter((peer) => peer.onOurChain && peer.height >= ourHeight).length;
  const forked = peers.filter((peer) => !peer.onOurChain && peer.height > ourHeight).sort(byHeight);
  if (forked.length > withUs) return { kind: 'fork', sources: forked };
  return { kind: 'none' };
}

/**
 * Whether the peer's chain holds our last block (ARK 3.0's fork test), by its status first. The
 * question also names the genesis block, which every peer of the network holds: ARK Core closes
 * the socket instead of answering when it holds none of the ids, and a peer on another branch
 * would otherwise look like a failing one.
 */
export async function onOurChain(
  client: Pick<PeerClient, 'commonBlocks'>,
  status: StatusReply,
  ours: BlockHeader,
  genesis: BlockReference,
): Promise<boolean> {
  const { height, header } = status.state;
  if (height < ours.height) return false;
  if (height === ours.height) return header.id === ours.id;
  if (height === ours.height + 1) return header.previousBlock === ours.id;
  const answer = await client.commonBlocks(
    ours.id === genesis.id ? [ours.id] : [ours.id, genesis.id],
  );
  return answer.common?.id === ours.id;
}
