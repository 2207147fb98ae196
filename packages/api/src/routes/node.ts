import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import { Milestones, type NetworkConfig } from '@lni/crypto';
import Joi from 'joi';
import type { NodeSources } from '../ledger/node-sources.js';
import { nodeSyncState } from './node-sync.js';
import { FEE_KEYS, TYPE_NAMES } from './transaction-types.js';

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
  const height = () => sources.lastBlock()?.height ?? 0;
  const milestone = () => new Milestones(config().milestones).at(Math.max(1, height()));
  const staticFees = () => {
    const fees = milestone().fees.staticFees;
    return Object.fromEntries(FEE_KEYS.map((key) => [key, String(fees[key] ?? 0)]));
  };
  const status = () => nodeSyncState(sources, config());
  const get = (path: string, description: string, handler: () => unknown): ServerRoute => ({
    method: 'GET',
    path,
    options: { description, tags: ['api', 'node'], handler },
  });
  return [
    get(
      '/api/node/status',
      'Whether the node is synced (with its peers, or alone by the slot clock), its height, and blocks behind',
      () => {
        const { synced, behind, lastBlock, now } = status();
        return {
          data: { synced, now: lastBlock?.height ?? 0, blocksCount: behind, timestamp: now },
        };
      },
    ),
    get(
      '/api/node/syncing',
      'Whether the node is syncing, and blocks behind its peers or the slot clock',
      () => {
        const { synced, behind, lastBlock } = status();
        return {
          data: {
            syncing: !synced,
            blocks: behind,
            height: lastBlock?.height ?? 0,
            ...(lastBlock && { id: lastBlock.id }),
          },
        };
      },
    ),
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
