import type { RouteName } from '../wire/routes.js';

export interface RateLimit {
  /** Messages allowed per IP in each window. */
  readonly points: number;
  readonly durationSeconds: number;
}

/**
 * ARK Core 3.x's per-IP limits on incoming messages (`utils/build-rate-limiter.ts`): a message
 * over them gets a 429 and its socket closed. They are our defaults, and the ceiling our own
 * requests to any peer stay under.
 */
export const ARK_GLOBAL_RATE_LIMIT: RateLimit = { points: 100, durationSeconds: 1 };

export const ARK_RATE_LIMITS: Readonly<Partial<Record<RouteName, RateLimit>>> = {
  getStatus: { points: 2, durationSeconds: 1 },
  getPeers: { points: 1, durationSeconds: 1 },
  getCommonBlocks: { points: 9, durationSeconds: 1 },
  getBlocks: { points: 1, durationSeconds: 2 },
  postBlock: { points: 2, durationSeconds: 4 },
  postTransactions: { points: 25, durationSeconds: 1 },
};

/** ARK's postBlock limit spread evenly (one post every 2 s): the pace of a peer's catch-up. */
export const ARK_POST_BLOCK_SPACING_MS = 2_000;
