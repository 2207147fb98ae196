import Joi from 'joi';
import { MESSAGE_NAMES, type MessageName } from './protocol/message-names.js';

export interface RateLimit {
  /** Messages allowed per IP in each window. */
  readonly points: number;
  readonly durationSeconds: number;
}

export interface P2POptions {
  readonly host: string;
  readonly port: number;
  /** Version this node announces; peers of another semver major are refused. */
  readonly version: string;
  /** Public ports of this node's other services, shown to peers (`{ api: 4003 }`). */
  readonly ports: Readonly<Record<string, number>>;
  readonly maxPeers: number;
  /** Dial loopback and private addresses that peers list in getPeers (test networks only). */
  readonly acceptLocalPeers: boolean;
  /** Seconds between discovery rounds (getPeers on known peers); 0 disables the timer. */
  readonly discoveryIntervalSeconds: number;
  readonly requestTimeoutMs: number;
  /** IPs (or CIDR ranges) allowed to call the internal forger endpoints. */
  readonly remoteAccess: readonly string[];
  readonly connections: {
    /** Simultaneous connections per IP; the next one is refused at the socket. */
    readonly maxPerIp: number;
    /** New connections accepted from all IPs together in each interval. */
    readonly newPerInterval: number;
    readonly intervalSeconds: number;
    /** IPs or CIDR ranges the connection limits do not apply to. */
    readonly exempt: readonly string[];
  };
  readonly rateLimits: {
    /** Every message of one IP together. */
    readonly global: RateLimit;
    readonly messages: Readonly<Record<MessageName, RateLimit>>;
    /** IPs or CIDR ranges never rate-limited (nor penalised for it): the node's own forgers. */
    readonly exempt: readonly string[];
  };
  readonly sync: {
    /** false: no sync unless a caller runs `blockSync.sync()` (tests, tools). */
    readonly enabled: boolean;
    /** Seconds between checks of the peers' heights; 0 syncs only when something wakes it. */
    readonly intervalSeconds: number;
    /** Blocks per getBlocks request (at most 400). */
    readonly batchSize: number;
    /** Batches downloading while one is applied, spread over the peers ahead. */
    readonly parallelDownloads: number;
  };
  readonly broadcast: {
    /** Most nodes a block or transaction travels through. */
    readonly maxHops: number;
    /** Blocks and transactions remembered as already passed on. */
    readonly seenCapacity: number;
  };
  readonly penalties: {
    readonly malformedMessage: number;
    readonly rateLimited: number;
    readonly invalidBlock: number;
    /** A score reaching this bans the IP. */
    readonly banThreshold: number;
    readonly banSeconds: number;
  };
}

const rateLimit = (points: number, durationSeconds: number) =>
  Joi.object({
    points: Joi.number().integer().min(1).default(points),
    durationSeconds: Joi.number().min(0.001).default(durationSeconds),
  }).default();

// Per-message defaults follow ARK Core 3.0's p2p rate limits (per IP).
const messageDefaults: Record<MessageName, [number, number]> = {
  getStatus: [2, 1],
  getPeers: [1, 1],
  getCommonBlocks: [9, 1],
  getBlocks: [5, 1],
  postBlock: [2, 4],
  postTransactions: [25, 1],
  getNetworkState: [10, 1],
  getCurrentRound: [10, 1],
  getTransactionsForForging: [10, 1],
};

export const p2pConfigSchema = Joi.object<P2POptions>({
  host: Joi.string().hostname().default('0.0.0.0'),
  port: Joi.number().port().default(4000),
  version: Joi.string()
    .pattern(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, 'semver')
    .default('3.0.0'),
  ports: Joi.object().pattern(Joi.string(), Joi.number().port()).default({}),
  maxPeers: Joi.number().integer().min(1).default(100),
  acceptLocalPeers: Joi.boolean().default(false),
  discoveryIntervalSeconds: Joi.number().min(0).default(60),
  requestTimeoutMs: Joi.number().integer().min(100).default(10_000),
  remoteAccess: Joi.array()
    .items(Joi.string().ip({ cidr: 'optional' }))
    .default(['127.0.0.1', '::1']),
  connections: Joi.object({
    maxPerIp: Joi.number().integer().min(1).default(10),
    newPerInterval: Joi.number().integer().min(1).default(4),
    intervalSeconds: Joi.number().min(0.001).default(30),
    exempt: Joi.array()
      .items(Joi.string().ip({ cidr: 'optional' }))
      .default([]),
  }).default(),
  rateLimits: Joi.object({
    global: rateLimit(100, 1),
    messages: Joi.object(
      Object.fromEntries(MESSAGE_NAMES.map((name) => [name, rateLimit(...messageDefaults[name])])),
    ).default(),
    // A forger polls its relay over loopback; limiting it would end in a ban of the forger.
    exempt: Joi.array()
      .items(Joi.string().ip({ cidr: 'optional' }))
      .default(['127.0.0.1', '::1']),
  }).default(),
  sync: Joi.object({
    enabled: Joi.boolean().default(true),
    intervalSeconds: Joi.number().min(0).default(8),
    batchSize: Joi.number().integer().min(1).max(400).default(400),
    parallelDownloads: Joi.number().integer().min(1).max(16).default(3),
  }).default(),
  broadcast: Joi.object({
    maxHops: Joi.number().integer().min(0).max(10).default(5),
    seenCapacity: Joi.number().integer().min(100).default(50_000),
  }).default(),
  penalties: Joi.object({
    malformedMessage: Joi.number().integer().min(0).default(10),
    rateLimited: Joi.number().integer().min(0).default(5),
    invalidBlock: Joi.number().integer().min(0).default(50),
    banThreshold: Joi.number().integer().min(1).default(50),
    banSeconds: Joi.number().min(0.001).default(3600),
  }).default(),
});

export const p2pEnvironment = {
  CORE_P2P_HOST: 'host',
  CORE_P2P_PORT: 'port',
} as const;
