import type { Logger } from '@lni/kernel';
import type { Chain } from '@lni/state/contracts';
import type { PeerNetwork } from '../peers/peer-network.js';
import { peerKey } from '../peers/peer.js';
import type { PeerRepository } from '../peers/peer-repository.js';
import {
  NetworkStatus,
  type NetworkStateReply,
  type OverHeightHeader,
} from '../wire/internal-messages.js';

export interface NetworkStateReaderDeps {
  readonly chain: Chain;
  readonly network: PeerNetwork;
  readonly peers: PeerRepository;
  /** Fewer peers than this: forgers are told the network's reach is too small (ARK: 20). */
  readonly minimumNetworkReach: number;
  readonly logger: Logger;
}

/** ARK's relay gives every peer this long to answer when a forger asks for the network state. */
const FAST_STATUS_MS = 1_500;

/**
 * The network as a forger judges it, in ARK Core 3.x's shape and by its rules: every peer is
 * asked for its status at once; peers at or below our height on our chain count for the quorum,
 * peers above us or forked against it, and the headers of the blocks above ours are listed so a
 * forger sees that its slot was taken. A peer that does not answer in time is not counted.
 * Unlike ARK, the details are filled in also when the reach is below the minimum, so a
 * development network's forger can still judge its few peers.
 */
export class NetworkStateReader {
  constructor(private readonly deps: NetworkStateReaderDeps) {}

  async read(): Promise<NetworkStateReply> {
    const { chain, network, peers } = this.deps;
    const answered = new Set<string>();
    await Promise.all(
      network.connected().map((client) =>
        network.status(client, FAST_STATUS_MS).then(
          () => answered.add(peerKey(client.ip, client.port)),
          (error: unknown) => network.reportFailure(client, error),
        ),
      ),
    );
    const ours = chain.status();
    // Only peers that answered just now: a silent peer's last status may be blocks old, and
    // counting it for the quorum would let a forger build on a tip the network has left (ARK
    // drops such peers before it counts).
    const records = peers.records().filter((peer) => answered.has(peerKey(peer.ip, peer.port)));
    const headers: Record<string, OverHeightHeader> = {};
    const details = {
      peersQuorum: 0,
      peersNoQuorum: 0,
      peersOverHeight: 0,
      peersForked: 0,
      peersDifferentSlot: 0,
      peersForgingNotAllowed: 0,
    };
    for (const peer of records) {
      if (peer.height > ours.height) {
        details.peersNoQuorum += 1;
        details.peersOverHeight += 1;
        const { id, height, generatorPublicKey } = peer.header;
        headers[id] = { id, height, generatorPublicKey };
      } else if (peer.forked) {
        details.peersNoQuorum += 1;
        details.peersForked += 1;
      } else {
        details.peersQuorum += 1;
      }
      if (peer.currentSlot !== ours.currentSlot) details.peersDifferentSlot += 1;
      if (!peer.forgingAllowed) details.peersForgingNotAllowed += 1;
    }
    return {
      status:
        records.length < this.deps.minimumNetworkReach
          ? NetworkStatus.BelowMinimumPeers
          : NetworkStatus.Default,
      nodeHeight: ours.height,
      lastBlockId: ours.header.id,
      quorumDetails: { ...details, peersOverHeightBlockHeaders: headers },
    };
  }
}
