import { ipOrRange, listOption } from '@lni/kernel';
import Joi from 'joi';

export interface ApiOptions {
  readonly host: string;
  readonly port: number;
  /**
   * Reverse proxies (IPs or CIDR ranges) whose X-Forwarded-For is believed: the client of a
   * request is then the address they forwarded for (`src/clients/client-address.ts`). Empty:
   * no header is believed, the client is the connection's peer.
   */
  readonly trustedProxies: readonly string[];
  readonly rateLimit: {
    readonly enabled: boolean;
    /** Requests allowed per IP in each window. */
    readonly points: number;
    readonly windowSeconds: number;
    /** Client IPs or CIDR ranges never limited (the node's own tools). */
    readonly whitelist: readonly string[];
  };
  readonly cors: boolean;
  /** A request still unanswered after this long gets 503 with Retry-After. */
  readonly timeBudgetMs: number;
  /**
   * While the event loop is more than this many milliseconds behind, new requests (but
   * `/health` and `/metrics`) are answered 503 with Retry-After at once; 0: never.
   */
  readonly maxEventLoopDelayMs: number;
  /** Responses of the routes that read only the chain, kept until the next block. */
  readonly cache: {
    readonly enabled: boolean;
    readonly maxMegabytes: number;
  };
  /** Live subscriptions over @hapi/nes on the same port (`src/live/`). */
  readonly subscriptions: {
    readonly enabled: boolean;
    /** Open websocket connections per IP (IPs of `rateLimit.whitelist` are not limited). */
    readonly maxConnectionsPerIp: number;
    readonly maxSubscriptionsPerConnection: number;
    /** A subscriber with more than this waiting to be sent to it is dropped. */
    readonly maxBacklogKilobytes: number;
    /** How far back `GET /api/events` replays, in blocks below the tip. */
    readonly catchUpBlocks: number;
  };
  /** Webhooks: managed from these IPs only; delivery timing. */
  readonly webhooks: {
    readonly enabled: boolean;
    readonly whitelist: readonly string[];
    readonly firstRetryMs: number;
    readonly maxRetryMs: number;
    readonly disableAfterMs: number;
    readonly timeoutMs: number;
    readonly pollMs: number;
  };
  /** GET /metrics (Prometheus text): served to these IPs only. */
  readonly metrics: {
    readonly enabled: boolean;
    readonly whitelist: readonly string[];
  };
  /**
   * Without the state plugin (an `api` node): `http://host:port` of core or relay nodes' APIs,
   * where submissions, the pool's routes and webhooks are forwarded, the first that answers.
   */
  readonly upstream: readonly string[];
  /** How long one upstream node may take to answer before the next is tried. */
  readonly upstreamTimeoutMs: number;
  /** Without the state plugin: blocks behind the writer past which `/health` answers 503. */
  readonly maxLagBlocks: number;
}

const upstreamUrl = Joi.string().uri({ scheme: ['http', 'https'] });
export const apiConfigSchema = Joi.object<ApiOptions>({
  host: Joi.string().hostname().default('0.0.0.0'),
  port: Joi.number().port().default(4003),
  trustedProxies: listOption().items(ipOrRange).default([]),
  rateLimit: Joi.object({
    enabled: Joi.boolean().default(true),
    points: Joi.number().integer().min(1).default(300),
    windowSeconds: Joi.number().integer().min(1).default(60),
    whitelist: Joi.array().items(ipOrRange).default(['127.0.0.1', '::1']),
  }).default(),
  cors: Joi.boolean().default(true),
  timeBudgetMs: Joi.number().integer().min(10).default(5_000),
  maxEventLoopDelayMs: Joi.number().integer().min(0).default(0),
  cache: Joi.object({
    enabled: Joi.boolean().default(true),
    maxMegabytes: Joi.number().min(1).max(4096).default(64),
  }).default(),
  subscriptions: Joi.object({
    enabled: Joi.boolean().default(true),
    maxConnectionsPerIp: Joi.number().integer().min(1).default(10),
    maxSubscriptionsPerConnection: Joi.number().integer().min(1).default(100),
    maxBacklogKilobytes: Joi.number().integer().min(1).default(2048),
    catchUpBlocks: Joi.number().integer().min(1).default(10_000),
  }).default(),
  webhooks: Joi.object({
    enabled: Joi.boolean().default(true),
    whitelist: Joi.array().items(ipOrRange).default(['127.0.0.1', '::1']),
    firstRetryMs: Joi.number().integer().min(10).default(10_000),
    maxRetryMs: Joi.number().integer().min(10).default(3_600_000),
    disableAfterMs: Joi.number().integer().min(100).default(86_400_000),
    timeoutMs: Joi.number().integer().min(100).default(10_000),
    pollMs: Joi.number().integer().min(10).default(5_000),
  }).default(),
  metrics: Joi.object({
    enabled: Joi.boolean().default(true),
    whitelist: Joi.array().items(ipOrRange).default(['127.0.0.1', '::1']),
  }).default(),
  upstream: listOption().items(upstreamUrl).default([]),
  upstreamTimeoutMs: Joi.number().integer().min(100).default(10_000),
  maxLagBlocks: Joi.number().integer().min(0).default(3),
});

export const apiEnvironment = {
  CORE_API_HOST: 'host',
  CORE_API_PORT: 'port',
  CORE_API_TRUSTED_PROXIES: 'trustedProxies',
  CORE_API_RATE_LIMIT: 'rateLimit.enabled',
  CORE_API_SUBSCRIPTIONS: 'subscriptions.enabled',
  CORE_API_UPSTREAM: 'upstream',
  CORE_API_MAX_LAG_BLOCKS: 'maxLagBlocks',
  CORE_API_MAX_EVENT_LOOP_DELAY: 'maxEventLoopDelayMs',
} as const;
