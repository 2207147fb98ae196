import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RouteName } from '../wire/routes.js';
import type { RateLimit } from './ark-rate-limits.js';
import { AddressRanges } from '@lni/kernel';

export interface MessageLimits {
  readonly global: RateLimit;
  readonly messages: Readonly<Partial<Record<RouteName, RateLimit>>>;
  /** IPs or CIDR ranges never limited: the node's own forgers. */
  readonly exempt: readonly string[];
}

/** Why a message was refused, in words a peer operator can act on. */
export interface RateLimitExceeded {
  readonly limit: string;
  readonly retryAfterMs: number;
}

/** Per-IP message rate limits: one for all messages together and one per route. */
export class MessageLimiter {
  private readonly global: RateLimiterMemory;
  private readonly perRoute = new Map<RouteName, RateLimiterMemory>();
  private readonly exempt: AddressRanges;

  constructor(private readonly limits: MessageLimits) {
    this.exempt = new AddressRanges(limits.exempt);
    this.global = limiterFor(limits.global);
    for (const [name, limit] of Object.entries(limits.messages) as [RouteName, RateLimit][]) {
      this.perRoute.set(name, limiterFor(limit));
    }
  }

  /** Counts one message; resolves undefined when allowed, or with the limit it broke. */
  async consume(ip: string, route: RouteName): Promise<RateLimitExceeded | undefined> {
    if (this.exempt.has(ip)) return undefined;
    const checks: [RateLimiterMemory, string][] = [
      [this.global, `${describe(this.limits.global)} messages`],
    ];
    const specific = this.perRoute.get(route);
    const limit = this.limits.messages[route];
    if (specific && limit) checks.push([specific, `${describe(limit)} ${route}`]);
    for (const [limiter, description] of checks) {
      try {
        await limiter.consume(ip);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { limit: description, retryAfterMs: rejection.msBeforeNext };
      }
    }
    return undefined;
  }
}

function limiterFor(limit: RateLimit): RateLimiterMemory {
  return new RateLimiterMemory({ points: limit.points, duration: limit.durationSeconds });
}

function describe(limit: RateLimit): string {
  return `${limit.points} per ${limit.durationSeconds} s`;
}
