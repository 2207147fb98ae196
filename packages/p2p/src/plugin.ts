import { asFunction } from 'awilix';
import { definePlugin } from '@lni/kernel';
import type { ChainPort } from './chain-port.js';
import { P2PError } from './errors.js';
import { p2pConfigSchema, p2pEnvironment, type P2POptions } from './config.js';
import './events.js';
import { PeerDiscovery } from './peers/peer-discovery.js';
import { PeerNetwork } from './peers/peer-network.js';
import { PeerRepository } from './peers/peer-repository.js';
import { PenaltyBox } from './peers/penalty-box.js';
import { loadSeedList } from './peers/seed-list.js';
import { P2PServer } from './server/p2p-server.js';

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
  }
}

/**
 * The P2P plugin. It will depend on `state`, which registers `p2pChain`; until that plugin
 * exists, `dependsOn` stays empty and whoever starts p2p registers `p2pChain` first.
 */
export const p2pPlugin = definePlugin<P2POptions>({
  name: 'p2p',
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
      p2pServer: asFunction(
        ({
          p2pChain,
          peerRepository,
          peerNetwork,
        }: {
          p2pChain: ChainPort;
          peerRepository: PeerRepository;
          peerNetwork: PeerNetwork;
        }) => new P2PServer({ p2pOptions: options, p2pChain, peerRepository, peerNetwork, logger }),
      ).singleton(),
    });
  },
  async boot({ container, options, paths, logger }) {
    if (!container.hasRegistration('p2pChain')) {
      throw new P2PError(
        'ERR_P2P_NO_CHAIN',
        'p2p needs the ledger registered as p2pChain (the state plugin does this); none is',
      );
    }
    const { p2pServer, peerDiscovery } = container.cradle;
    await p2pServer.start();
    const seeds = await loadSeedList(paths.config);
    const added = await peerDiscovery.seed(seeds);
    logger.info({ seeds: seeds.length, added }, 'Seed peers dialled');
    peerDiscovery.start(options.discoveryIntervalSeconds);
  },
  async dispose({ container }) {
    const { p2pServer, peerNetwork, peerDiscovery } = container.cradle;
    peerDiscovery.stop();
    await peerNetwork.disconnectAll();
    await p2pServer.stop();
  },
});

export default p2pPlugin;
