import { asClass, asFunction, asValue } from 'awilix';
import type {} from '@lni/database/contracts';
import { definePlugin, type PublicServices } from '@lni/kernel';
import { Broadcaster } from './broadcast/broadcaster.js';
import { BlockCatchUp } from './broadcast/catch-up.js';
import { P2PMetrics } from './metrics/p2p-metrics.js';
import { peerOperations, peerStatusSections } from './admin/peer-operations.js';
import type { Chain } from '@lni/state/contracts';
import { p2pConfigSchema, p2pEnvironment, type P2POptions } from './config.js';
import { P2PError } from './errors.js';
import './contracts/index.js';
import { NetworkStateReader } from './forging/network-state.js';
import { ARK_POST_BLOCK_SPACING_MS } from './limits/ark-rate-limits.js';
import { OutgoingThrottle } from './limits/outgoing-throttle.js';
import { PeerDiscovery } from './peers/peer-discovery.js';
import { PeerNetwork } from './peers/peer-network.js';
import { PeerRepository } from './peers/peer-repository.js';
import { PeerVerifier } from './peers/peer-verifier.js';
import { PenaltyBox } from './peers/penalty-box.js';
import { Redialer } from './peers/redialer.js';
import { loadSeedList } from './peers/seed-list.js';
import { VersionPolicy } from './peers/version-policy.js';
import { P2PServer } from './server/p2p-server.js';
import { PeerStorage } from './storage/peer-storage.js';
import { p2pSchema } from './storage/p2p-schema.js';
import { BlockSync } from './sync/block-sync.js';
import type { PeerPlugin } from './wire/messages.js';

declare module '@lni/kernel' {
  interface Cradle {
    readonly p2pServer: P2PServer;
    /** Peers, their standing and bans: the read API behind `GET /api/peers`. */
    readonly peerRepository: PeerRepository;
    /** Outgoing connections: dial, and the clients sync and broadcast use. */
    readonly peerNetwork: PeerNetwork;
    /** getPeers discovery and the periodic refresh of peers. */
    readonly peerDiscovery: PeerDiscovery;
    /** Seeds and lost peers, dialled again with backoff for as long as the node runs. */
    readonly peerRedialer: Redialer;
    /** The network as a forger judges it (ARK's network state: quorum, blocks above ours). */
    readonly networkStateReader: NetworkStateReader;
    /** Passes accepted blocks and transactions on to peers. */
    readonly broadcaster: Broadcaster;
    /** Catches up with peers ahead of us, and leaves a fork most peers left. */
    readonly blockSync: BlockSync;
    /** Peers and penalties in the p2p plugin's own tables; registered when `database` runs. */
    readonly peerStorage: PeerStorage;
  }
}

/**
 * The P2P plugin, in ARK Core 3.x's dialect. The ledger (`state`) registers `chain` and
 * `forgingSource`; `database`, when it runs, holds p2p's tables of peers and bans. Both are
 * optional dependencies, so they boot first when present and tests can stand in for them.
 */
export const p2pPlugin = definePlugin<P2POptions>({
  name: 'p2p',
  dependsOn: { optional: ['state', 'database'] },
  configSchema: p2pConfigSchema,
  environment: p2pEnvironment,
  listensOn: ({ host, port }) => [{ option: 'port', host, port }],
  register({ container, options, logger, events, name }) {
    const throttle = new OutgoingThrottle();
    // Resolved when asked: the services exist once the plugins booted.
    const peers = () => container.cradle.peerRepository;
    container.cradle.adminOperations.add(
      name,
      ...peerOperations({ peers, network: () => container.cradle.peerNetwork }),
    );
    container.cradle.statusSections.add(
      name,
      ...peerStatusSections(peers, () => container.cradle.chain),
    );
    const metrics = new P2PMetrics(
      container.cradle.metrics,
      () => container.cradle.peerRepository.size,
    );
    if (container.hasRegistration('schemaRegistry')) {
      container.cradle.schemaRegistry.add('p2p', p2pSchema);
      container.register({ peerStorage: asClass(PeerStorage).singleton() });
    }
    container.register({
      peerRepository: asFunction(() => {
        // The box reports changes to the repository, which stores them once a store is attached.
        const penalties = new PenaltyBox({
          policy: options.penalties,
          exempt: options.penalties.exempt,
          logger,
          onChange: (ip, state) => repository.penaltyChanged(ip, state),
        });
        const repository = new PeerRepository({
          penalties,
          maxPeers: options.maxPeers,
          maxSameSubnetPeers: options.maxSameSubnetPeers,
          events,
          logger,
        });
        return repository;
      }).singleton(),
      peerNetwork: asFunction(
        ({ chain, peerRepository }: { chain: Chain; peerRepository: PeerRepository }) =>
          new PeerNetwork({
            chain: chain,
            peers: peerRepository,
            verifier: new PeerVerifier({
              chain: chain,
              versions: versionPolicy(options, chain),
              roundLength: () => chain.roundLength?.() ?? 51,
            }),
            throttle,
            logger,
            version: options.version,
            host: options.host,
            listeningPort: () => container.cradle.p2pServer.port,
            connectTimeoutMs: options.requestTimeoutMs,
            verifyTimeoutMs: options.verifyTimeoutMs,
            maxSequentialErrors: options.maxSequentialErrors,
            onLost: (ip, port) => container.cradle.peerRedialer.lost(ip, port),
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
        ({
          chain,
          peerNetwork,
          peerRepository,
        }: {
          chain: Chain;
          peerNetwork: PeerNetwork;
          peerRepository: PeerRepository;
        }) =>
          new NetworkStateReader({
            chain: chain,
            network: peerNetwork,
            peers: peerRepository,
            minimumNetworkReach: options.minimumNetworkReach,
            logger,
          }),
      ).singleton(),
      broadcaster: asFunction(
        ({ chain, peerNetwork }: { chain: Chain; peerNetwork: PeerNetwork }) =>
          new Broadcaster({
            network: peerNetwork,
            logger,
            maxHops: options.broadcast.maxHops,
            seenCapacity: options.broadcast.seenCapacity,
            maxTransactionsPerRequest: options.maxTransactionsPerRequest,
            catchUp: new BlockCatchUp({
              chain,
              logger,
              maxBlocks: options.broadcast.catchUpMaxBlocks,
              spacingMs: ARK_POST_BLOCK_SPACING_MS,
              hops: options.broadcast.maxHops,
              reportFailure: (client, error) => peerNetwork.reportFailure(client, error),
            }),
          }),
      ).singleton(),
      blockSync: asFunction(
        ({
          chain,
          peerNetwork,
          peerRepository,
        }: {
          chain: Chain;
          peerNetwork: PeerNetwork;
          peerRepository: PeerRepository;
        }) =>
          new BlockSync({
            chain: chain,
            network: peerNetwork,
            peers: peerRepository,
            logger,
            batchSize: options.sync.batchSize,
            parallelDownloads: options.sync.parallelDownloads,
          }),
      ).singleton(),
      peers: asFunction(
        ({ peerRepository }: { peerRepository: PeerRepository }) => peerRepository,
      ).singleton(),
      p2pListener: asFunction(({ p2pServer }: { p2pServer: P2PServer }) => p2pServer).singleton(),
      p2pServer: asFunction(
        ({
          chain,
          peerRepository,
          peerNetwork,
          networkStateReader,
          broadcaster,
          blockSync,
        }: {
          chain: Chain;
          peerRepository: PeerRepository;
          peerNetwork: PeerNetwork;
          networkStateReader: NetworkStateReader;
          broadcaster: Broadcaster;
          blockSync: BlockSync;
        }) =>
          new P2PServer({
            p2pOptions: options,
            chain,
            peerRepository,
            peerNetwork,
            versions: versionPolicy(options, chain),
            logger,
            events,
            forging: () =>
              container.hasRegistration('forgingSource')
                ? container.cradle.forgingSource
                : undefined,
            networkState: () => networkStateReader.read(),
            wakeSync: () => {
              if (options.sync.enabled) blockSync.wake();
            },
            services: () => publicServices(container.cradle.publicServices, options),
            onResult: metrics.requestEnded,
            hooks: {
              blockAccepted: (block, hops, from, height) =>
                broadcaster.block(block, hops, from, height),
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
    if (!container.hasRegistration('chain')) {
      throw new P2PError(
        'ERR_P2P_NO_CHAIN',
        'p2p needs the ledger registered as chain (the state plugin does this); none is',
      );
    }
    const { p2pServer, peerDiscovery, blockSync, broadcaster, chain, peerRepository } =
      container.cradle;
    if (container.hasRegistration('peerStorage')) {
      await peerRepository.attachStore(container.cradle.peerStorage);
    }
    await p2pServer.start();
    // Transactions posted to our API start here with no hops; peers' ones the server passes on.
    chain.onSubmittedTransactions?.((transactions) => broadcaster.transactions(transactions, 0));
    const seeds = await loadSeedList(paths.config);
    const redialer = new Redialer({
      network: container.cradle.peerNetwork,
      peers: peerRepository,
      seeds,
      logger,
      minDelayMs: options.redial.minSeconds * 1000,
      maxDelayMs: options.redial.maxSeconds * 1000,
    });
    container.register({ peerRedialer: asValue(redialer) });
    // The first round dials every seed and every peer kept from the last run, before sync looks.
    await redialer.tick();
    logger.info(
      {
        seeds: seeds.length,
        known: peerRepository.lost().length + peerRepository.size,
        peers: peerRepository.size,
      },
      'Peers dialled',
    );
    redialer.start();
    peerDiscovery.start(options.discoveryIntervalSeconds);
    if (options.sync.enabled) {
      // A new peer may be ahead of us; so may the network after a restart.
      events.on('peer.added', () => blockSync.wake());
      blockSync.start(options.sync.intervalSeconds * 1000);
      blockSync.wake();
    }
  },
  async dispose({ container }) {
    const { p2pServer, peerNetwork, peerDiscovery, blockSync, peerRepository } = container.cradle;
    if (container.hasRegistration('peerRedialer')) container.cradle.peerRedialer.stop();
    peerDiscovery.stop();
    await blockSync.settle();
    await peerNetwork.disconnectAll();
    await p2pServer.stop();
    await peerRepository.flush();
  },
});

function versionPolicy(options: P2POptions, chain: Chain): VersionPolicy {
  return new VersionPolicy({
    configured: options.minimumVersions,
    networkName: chain.network.name,
    milestoneRanges: () => chain.minimumPeerVersions?.(chain.status().height) ?? [],
  });
}

/**
 * The services getStatus announces: the `ports` option, then what plugins announce through
 * the kernel's registry (the API plugin its port, as `@arkecosystem/core-api`).
 */
function publicServices(
  announced: PublicServices,
  options: P2POptions,
): Record<string, PeerPlugin> {
  const services: Record<string, PeerPlugin> = {};
  for (const [name, port] of Object.entries(options.ports))
    services[name] = { port, enabled: true };
  for (const [name, service] of Object.entries(announced.announced())) services[name] ??= service;
  return services;
}

export default p2pPlugin;
