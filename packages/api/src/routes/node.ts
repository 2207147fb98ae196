import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import { Milestones, type NetworkConfig } from '@lni/crypto';
import Joi from 'joi';
import type { NodeSources, PeerSummary } from '../ledger/node-sources.js';
import { FEE_KEYS, TYPE_NAMES } from './transaction-types.js';

/** The height most peers report; our own when we know no peer. */
export function networkHeight(peers: readonly PeerSummary[], own: number): number {
  if (peers.length === 0) return own;
  const heights = peers.map((peer) => peer.height).sort((a, b) => a - b);
  return Math.max(own, heights[Math.floor(heights.length / 2)] ?? own);
}

/** GET /api/node/*, /api/transactions/types|fees, /api/peers. */
export function nodeRoutes(sources: NodeSources): ServerRoute[] {
  const config = (): NetworkConfig => {
    const network = sources.network();
    if (network === undefined) {
      throw Boom.serverUnavailable(
        'this node does not run the state plugin (the ledger) in its mode, so it cannot answer this route',
      );
    }
    return network;
  };
  const milestone = () => new Milestones(config().milestones).at(Math.max(1, sources.height()));
  const staticFees = () => {
    const fees = milestone().fees.staticFees;
    return Object.fromEntries(FEE_KEYS.map((key) => [key, String(fees[key] ?? 0)]));
  };
  const status = () => {
    const height = sources.height();
    const target = networkHeight(sources.peers()?.list() ?? [], height);
    const epochMs = new Date(milestone().epoch).getTime();
    return {
      synced: height >= target,
      now: height,
      blocksCount: target - height,
      timestamp: Math.floor((sources.now().getTime() - epochMs) / 1000),
    };
  };
  const get = (path: string, description: string, handler: () => unknown): ServerRoute => ({
    method: 'GET',
    path,
    options: { description, tags: ['api', 'node'], handler },
  });
  return [
    get('/api/node/status', 'Whether the node is synced, its height, and blocks behind', () => ({
      data: status(),
    })),
    get('/api/node/syncing', 'Sync progress against the height most peers report', () => {
      const { synced, now, blocksCount } = status();
      return { data: { syncing: !synced, blocks: blocksCount, height: now } };
    }),
    get('/api/node/configuration', 'Network, ports, the milestone in force and pool limits', () => {
      const { network } = config();
      const current = milestone();
      return {
        data: {
          core: { version: sources.version },
          nethash: network.nethash,
          slip44: network.slip44,
          wif: network.wif,
          token: network.client?.token,
          symbol: network.client?.symbol,
          explorer: network.client?.explorer,
          version: network.pubKeyHash,
          ports: sources.ports,
          constants: current,
          transactionPool: sources.poolLimits() ?? null,
        },
      };
    }),
    get('/api/node/configuration/crypto', "The network's crypto files as loaded", () => {
      const { network, milestones, genesisBlock, exceptions } = config();
      return { data: { network, milestones, genesisBlock, exceptions } };
    }),
    get('/api/transactions/fees', 'Static fees of the milestone in force, per type group', () => ({
      data: { 1: staticFees() },
    })),
    get('/api/transactions/types', 'Transaction types by type group', () => ({
      data: { 1: TYPE_NAMES },
    })),
    get('/api/peers', 'Peers this node is connected to, and the IPs it banned', () => {
      const reader = sources.peers();
      const peers = reader?.list() ?? [];
      return {
        meta: {
          count: peers.length,
          pageCount: 1,
          totalCount: peers.length,
          // Banned IPs are no longer peers; operators still need to see them and why.
          bans: reader?.bans?.() ?? [],
        },
        data: peers,
      };
    }),
    {
      method: 'GET',
      path: '/api/peers/{ip}',
      options: {
        description: 'A peer by IP address',
        tags: ['api', 'peers'],
        validate: { params: Joi.object({ ip: Joi.string().ip().required() }) },
        handler: (request) => {
          const peer = sources
            .peers()
            ?.list()
            .find((candidate) => candidate.ip === request.params.ip);
          if (peer === undefined)
            throw Boom.notFound(`peer ${request.params.ip as string} not found`);
          return { data: peer };
        },
      },
    },
  ];
}
