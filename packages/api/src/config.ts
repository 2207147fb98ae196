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
  /** Responses of the routes that read only the chain, kept until the next block. */
  readonly cache: {
    readonly enabled: boolean;
    readonly maxMegabytes: number;
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
  cache: Joi.object({
    enabled: Joi.boolean().default(true),
    maxMegabytes: Joi.number().min(1).max(4096).default(64),
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
} as const;
