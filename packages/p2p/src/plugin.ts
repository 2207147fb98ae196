import { asFunction } from 'awilix';
import { definePlugin } from '@lni/kernel';
import { Broadcaster } from './broadcast/broadcaster.js';
import type { ChainPort } from './chain-port.js';
import type { ForgingPort } from './forging/forging-port.js';
import { NetworkStateReader } from './forging/network-state.js';
import { P2PError } from './errors.js';
import { p2pConfigSchema, p2pEnvironment, type P2POptions } from './config.js';
import './events.js';
import { PeerDiscovery } from './peers/peer-discovery.js';
import { PeerNetwork } from './peers/peer-network.js';
import { PeerRepository } from './peers/peer-repository.js';
import { PenaltyBox } from './peers/penalty-box.js';
import { loadSeedList } from './peers/seed-list.js';
import { P2PServer } from './server/p2p-server.js';
import { BlockSync } from './sync/block-sync.js';

declare module '@lni/kernel' {
  interface Cradle {
    /**
     * The ledger as P2P sees it. Registered by the `state` plugin (or a test); p2p only
     * resolves it, so a node without a ledger fails at boot with the name missing.
     */
    readonly p2pChain: ChainPort;
    readonly p2pServer: P2PServer;
    /** Peers, their standing and bans: the read API behind `GET /api/peers`. */
    readonly peerRepository: PeerRepository;
    /** Outgoing connections: dial, and the clients sync and broadcast use. */
    readonly peerNetwork: PeerNetwork;
    /** Seeds, getPeers discovery and the periodic refresh of peers. */
    readonly peerDiscovery: PeerDiscovery;
    /**
     * What a forger needs from the ledger (round, transactions for the next block). Registered
     * by the `state` plugin; p2p resolves it only when a forger asks.
     */
    readonly p2pForging: ForgingPort;
    /** The network as a forger judges it (heights, quorum, blocks above ours). */
    readonly networkStateReader: NetworkStateReader;
    /** Passes accepted blocks and transactions on to peers. */
    readonly broadcaster: Broadcaster;
    /** Catches up with peers ahead of us, and leaves a fork most peers left. */
    readonly blockSync: BlockSync;
  }
}

/**
 * The P2P plugin. The ledger (`state`) registers `p2pChain` and `p2pForging`; it is an optional
 * dependency so that state boots first (its chain loaded) when both run, while tests can stand
 * in for it with a plugin of their own.
 */
export const p2pPlugin = definePlugin<P2POptions>({
  name: 'p2p',
  dependsOn: { optional: ['state'] },
  configSchema: p2pConfigSchema,
  environment: p2pEnvironment,
  register({ container, options, logger, events }) {
    container.register({
      peerRepository: asFunction(
        () =>
          new PeerRepository({
            penalties: new PenaltyBox({ policy: options.penalties, logger }),
            maxPeers: options.maxPeers,
            events,
            logger,
          }),
      ).singleton(),
      peerNetwork: asFunction(
        ({ p2pChain, peerRepository }: { p2pChain: ChainPort; peerRepository: PeerRepository }) =>
          new PeerNetwork({
            chain: p2pChain,
            peers: peerRepository,
            logger,
            version: options.version,
            host: options.host,
            listeningPort: () => container.cradle.p2pServer.port,
            requestTimeoutMs: options.requestTimeoutMs,
          }),
      ).singleton(),
      peerDiscovery: asFunction(
        ({
          peerNetwork,
          peerRepository,
        }: {
          peerNetwork: PeerNetwork;
          peerRepository: PeerRepository;
        }) =>
          new PeerDiscovery({
            network: peerNetwork,
            peers: peerRepository,
            logger,
            acceptLocalPeers: options.acceptLocalPeers,
          }),
      ).singleton(),
      networkStateReader: asFunction(
        ({ p2pChain, peerNetwork }: { p2pChain: ChainPort; peerNetwork: PeerNetwork }) =>
          new NetworkStateReader({ chain: p2pChain, network: peerNetwork, logger }),
      ).singleton(),
      broadcaster: asFunction(
        ({ peerNetwork }: { peerNetwork: PeerNetwork }) =>
          new Broadcaster({ network: peerNetwork, logger, ...options.broadcast }),
      ).singleton(),
      blockSync: asFunction(
        ({
          p2pChain,
          peerNetwork,
          peerRepository,
        }: {
          p2pChain: ChainPort;
          peerNetwork: PeerNetwork;
          peerRepository: PeerRepository;
        }) =>
          new BlockSync({
            chain: p2pChain,
            network: peerNetwork,
            peers: peerRepository,
            logger,
            batchSize: options.sync.batchSize,
            parallelDownloads: options.sync.parallelDownloads,
          }),
      ).singleton(),
      p2pServer: asFunction(
        ({
          p2pChain,
          peerRepository,
          peerNetwork,
          networkStateReader,
          broadcaster,
          blockSync,
        }: {
          p2pChain: ChainPort;
          peerRepository: PeerRepository;
          peerNetwork: PeerNetwork;
          networkStateReader: NetworkStateReader;
          broadcaster: Broadcaster;
          blockSync: BlockSync;
        }) =>
          new P2PServer({
            p2pOptions: options,
            p2pChain,
            peerRepository,
            peerNetwork,
            logger,
            forging: () =>
              container.hasRegistration('p2pForging') ? container.cradle.p2pForging : undefined,
            networkState: () => networkStateReader.read(),
            hooks: {
              blockAccepted: (block, hops, from) => broadcaster.block(block, hops, from),
              blockRejected: () => {
                if (options.sync.enabled) blockSync.wake();
              },
              transactionsAccepted: (transactions, hops, from) =>
                broadcaster.transactions(transactions, hops, from),
            },
          }),
      ).singleton(),
    });
  },
  async boot({ container, options, paths, logger, events }) {
    if (!container.hasRegistration('p2pChain')) {
      throw new P2PError(
        'ERR_P2P_NO_CHAIN',
        'p2p needs the ledger registered as p2pChain (the state plugin does this); none is',
      );
    }
    const { p2pServer, peerDiscovery, blockSync, broadcaster, p2pChain } = container.cradle;
    await p2pServer.start();
    // Transactions posted to our API start here with no hops; peers' ones the server passes on.
    p2pChain.onSubmittedTransactions?.((transactions) => broadcaster.transactions(transactions, 0));
    const seeds = await loadSeedList(paths.config);
    const added = await peerDiscovery.seed(seeds);
    logger.info({ seeds: seeds.length, added }, 'Seed peers dialled');
    peerDiscovery.start(options.discoveryIntervalSeconds);
    if (options.sync.enabled) {
      // A new peer may be ahead of us; so may the network after a restart.
      events.on('peer.added', () => blockSync.wake());
      blockSync.start(options.sync.intervalSeconds * 1000);
      blockSync.wake();
    }
  },
  async dispose({ container }) {
    const { p2pServer, peerNetwork, peerDiscovery, blockSync } = container.cradle;
    peerDiscovery.stop();
    await blockSync.settle();
    await peerNetwork.disconnectAll();
    await p2pServer.stop();
  },
});

export default p2pPlugin;
