import type { P2PListener, PeerReader } from './peers.js';

/** The services the `p2p` plugin registers for other plugins, under these names. */
declare module '@lni/kernel' {
  interface Cradle {
    readonly peers: PeerReader;
    readonly p2pListener: P2PListener;
  }
}
