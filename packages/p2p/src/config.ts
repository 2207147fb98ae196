import { ipOrRange, listOption } from '@lni/kernel';
import Joi from 'joi';
import {
  ARK_GLOBAL_RATE_LIMIT,
  ARK_RATE_LIMITS,
  type RateLimit,
} from './limits/ark-rate-limits.js';
import { ARK_MINIMUM_VERSIONS } from './peers/version-policy.js';
import { ROUTE_NAMES, type RouteName } from './wire/routes.js';

export type { RateLimit } from './limits/ark-rate-limits.js';

export interface P2POptions {
  readonly host: string;
  /** The network's P2P port: ARK peers dial every peer back on their own port. */
  readonly port: number;
  /** The version announced to peers: ARK nodes accept ^3.0, and ≥ 3.9 on mainnet late. */
  readonly version: string;
  /** Versions accepted from peers (semver ranges), besides the network milestone's own. */
  readonly minimumVersions: readonly string[];
  /** Public ports of this node's other services shown in getStatus, by package name. */
  readonly ports: Readonly<Record<string, number>>;
  readonly maxPeers: number;
  /** Most peers that may share one IPv4 /24 (ARK: 5); seeds, IPv6 and loopback are not counted. */
  readonly maxSameSubnetPeers: number;
  /** Dial loopback and private addresses that peers list in getPeers (test networks only). */
  readonly acceptLocalPeers: boolean;
  /** Peers below which the network state tells forgers the reach is too small (ARK: 20). */
  readonly minimumNetworkReach: number;
  /** Seconds between discovery rounds (getPeers on known peers); 0 disables the timer. */
  readonly discoveryIntervalSeconds: number;
  /** Connect and hello timeout of outgoing connections; the server's wait for a hello. */
  readonly requestTimeoutMs: number;
  /** How long the verification of a new peer may take (ARK: 60 s). */
  readonly verifyTimeoutMs: number;
  /** Failed requests in a row after which a peer is disconnected (ARK: 3). */
  readonly maxSequentialErrors: number;
  readonly maxTransactionsPerRequest: number;
  /** IPs (or CIDR ranges) allowed to call the internal forger routes. */
  readonly remoteAccess: readonly string[];
  readonly redial: {
    /** First wait before a lost peer or a seed is dialled again; doubled per failure. */
    readonly minSeconds: number;
    readonly maxSeconds: number;
  };
  readonly connections: {
    /** Simultaneous connections per IP; the next one is refused at the socket. */
    readonly maxPerIp: number;
    /** New connections accepted from one IP in each interval. */
    readonly newPerInterval: number;
    readonly intervalSeconds: number;
    /** IPs or CIDR ranges the connection limits do not apply to. */
    readonly exempt: readonly string[];
  };
  readonly rateLimits: {
    /** Every message of one IP together. */
    readonly global: RateLimit;
    readonly messages: Readonly<Partial<Record<RouteName, RateLimit>>>;
    /** IPs or CIDR ranges never rate-limited: the node's own forgers. */
    readonly exempt: readonly string[];
  };
  readonly sync: {
    /** false: no sync unless a caller runs `blockSync.sync()` (tests, tools). */
    readonly enabled: boolean;
    /** Seconds between checks of the peers' heights; 0 syncs only when something wakes it. */
    readonly intervalSeconds: number;
    /** Blocks per getBlocks request (at most 400). */
    readonly batchSize: number;
    /** Batches downloading while one is applied, spread over the peers. */
    readonly parallelDownloads: number;
    /** Bytes of transactions our getBlocks answers hold at most (ARK: 20 MiB less 100 KiB). */
    readonly maxBytesPerReply: number;
  };
  readonly broadcast: {
    /** Most nodes a block or transaction travels through (LNI's hop count). */
    readonly maxHops: number;
    /** Blocks and transactions remembered as already passed on. */
    readonly seenCapacity: number;
    /**
     * Most blocks a peer may lack below a block it refused for us to send them (0: never).
     * ARK takes 2 postBlocks per 4 s: 3 missing blocks and the refused one fit before the
     * next block of an 8-second network needs its own post.
     */
    readonly catchUpMaxBlocks: number;
  };
  readonly penalties: {
    readonly malformedMessage: number;
    readonly rateLimited: number;
    readonly invalidBlock: number;
    /** A score reaching this bans the IP. */
    readonly banThreshold: number;
    readonly banSeconds: number;
    /** IPs or CIDR ranges never penalised nor banned: loopback, where a node's forger lives. */
    readonly exempt: readonly string[];
  };
}

const LOOPBACK = ['127.0.0.0/8', '::1'];
const ipList = Joi.array().items(ipOrRange);

const rateLimit = ({ points, durationSeconds }: RateLimit) =>
  Joi.object({
    points: Joi.number().integer().min(1).default(points),
    durationSeconds: Joi.number().min(0.001).default(durationSeconds),
  }).default();

const semverPattern = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

export const p2pConfigSchema = Joi.object<P2POptions>({
  host: Joi.string().hostname().default('0.0.0.0'),
  port: Joi.number().port().default(4000),
  version: Joi.string().pattern(semverPattern, 'semver').min(5).max(24).default('3.9.1'),
  minimumVersions: Joi.array()
    .items(Joi.string().max(64))
    .default([...ARK_MINIMUM_VERSIONS]),
  ports: Joi.object().pattern(Joi.string().min(4).max(64), Joi.number().port()).max(30).default({}),
  maxPeers: Joi.number().integer().min(1).default(100),
  maxSameSubnetPeers: Joi.number().integer().min(0).default(5),
  acceptLocalPeers: Joi.boolean().default(false),
  minimumNetworkReach: Joi.number().integer().min(0).default(20),
  discoveryIntervalSeconds: Joi.number().min(0).default(60),
  requestTimeoutMs: Joi.number().integer().min(100).default(10_000),
  verifyTimeoutMs: Joi.number().integer().min(100).default(60_000),
  maxSequentialErrors: Joi.number().integer().min(1).default(3),
  maxTransactionsPerRequest: Joi.number().integer().min(1).max(1000).default(40),
  // A forger in another container or host is let in by CORE_P2P_REMOTE_ACCESS, comma-separated.
  remoteAccess: listOption().items(ipOrRange).default(['127.0.0.1', '::1']),
  redial: Joi.object({
    minSeconds: Joi.number().min(0.1).default(10),
    // ARK re-pings its peers every 60 s while it has few: a healed link is used within a minute.
    maxSeconds: Joi.number().min(0.1).default(60),
  }).default(),
  connections: Joi.object({
    maxPerIp: Joi.number().integer().min(1).default(10),
    newPerInterval: Joi.number().integer().min(1).default(4),
    intervalSeconds: Joi.number().min(0.001).default(30),
    // The firewall script exempts loopback: a core node's forger and local tools live there.
    exempt: ipList.default(LOOPBACK),
  }).default(),
  rateLimits: Joi.object({
    global: rateLimit(ARK_GLOBAL_RATE_LIMIT),
    messages: Joi.object(
      Object.fromEntries(
        ROUTE_NAMES.flatMap((name) => {
          const limit = ARK_RATE_LIMITS[name];
          return limit ? [[name, rateLimit(limit)]] : [];
        }),
      ),
    ).default(),
    // A forger polls its relay over loopback; limiting it would end in a ban of the forger.
    exempt: ipList.default(LOOPBACK),
  }).default(),
  sync: Joi.object({
    enabled: Joi.boolean().default(true),
    intervalSeconds: Joi.number().min(0).default(8),
    batchSize: Joi.number().integer().min(1).max(400).default(400),
    parallelDownloads: Joi.number().integer().min(1).max(16).default(3),
    maxBytesPerReply: Joi.number()
      .integer()
      .min(1)
      .max(20 * 1024 * 1024 - 100 * 1024)
      .default(4 * 1024 * 1024),
  }).default(),
  broadcast: Joi.object({
    maxHops: Joi.number().integer().min(0).max(255).default(5),
    seenCapacity: Joi.number().integer().min(100).default(50_000),
    catchUpMaxBlocks: Joi.number().integer().min(0).max(50).default(3),
  }).default(),
  penalties: Joi.object({
    malformedMessage: Joi.number().integer().min(0).default(10),
    rateLimited: Joi.number().integer().min(0).default(5),
    invalidBlock: Joi.number().integer().min(0).default(50),
    banThreshold: Joi.number().integer().min(1).default(50),
    banSeconds: Joi.number().min(0.001).default(3600),
    exempt: ipList.default(LOOPBACK),
  }).default(),
});

/** ARK operators' variables, with ARK's meaning. */
export const p2pEnvironment = {
  CORE_P2P_HOST: 'host',
  CORE_P2P_PORT: 'port',
  CORE_P2P_MIN_NETWORK_REACH: 'minimumNetworkReach',
  CORE_P2P_MAX_PEERS_SAME_SUBNET: 'maxSameSubnetPeers',
  /** LNI's own: IPs or CIDR ranges, comma-separated, allowed on the internal forger routes. */
  CORE_P2P_REMOTE_ACCESS: 'remoteAccess',
} as const;
