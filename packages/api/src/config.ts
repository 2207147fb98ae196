import Joi from 'joi';

export interface ApiOptions {
  readonly host: string;
  readonly port: number;
  readonly rateLimit: {
    readonly enabled: boolean;
    /** Requests allowed per IP in each window. */
    readonly points: number;
    readonly windowSeconds: number;
    /** IPs never limited (the node's own tools, a reverse proxy). */
    readonly whitelist: readonly string[];
  };
  readonly cors: boolean;
  /** A request still unanswered after this long gets 503 with Retry-After. */
  readonly timeBudgetMs: number;
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
}

export const apiConfigSchema = Joi.object<ApiOptions>({
  host: Joi.string().hostname().default('0.0.0.0'),
  port: Joi.number().port().default(4003),
  rateLimit: Joi.object({
    enabled: Joi.boolean().default(true),
    points: Joi.number().integer().min(1).default(300),
    windowSeconds: Joi.number().integer().min(1).default(60),
    whitelist: Joi.array().items(Joi.string().ip()).default(['127.0.0.1', '::1']),
  }).default(),
  cors: Joi.boolean().default(true),
  timeBudgetMs: Joi.number().integer().min(10).default(5_000),
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
    whitelist: Joi.array()
      .items(Joi.string().ip({ cidr: 'forbidden' }))
      .default(['127.0.0.1', '::1']),
    firstRetryMs: Joi.number().integer().min(10).default(10_000),
    maxRetryMs: Joi.number().integer().min(10).default(3_600_000),
    disableAfterMs: Joi.number().integer().min(100).default(86_400_000),
    timeoutMs: Joi.number().integer().min(100).default(10_000),
    pollMs: Joi.number().integer().min(10).default(5_000),
  }).default(),
  metrics: Joi.object({
    enabled: Joi.boolean().default(true),
    whitelist: Joi.array()
      .items(Joi.string().ip({ cidr: 'forbidden' }))
      .default(['127.0.0.1', '::1']),
  }).default(),
});

export const apiEnvironment = {
  CORE_API_HOST: 'host',
  CORE_API_PORT: 'port',
  CORE_API_RATE_LIMIT: 'rateLimit.enabled',
  CORE_API_SUBSCRIPTIONS: 'subscriptions.enabled',
} as const;
