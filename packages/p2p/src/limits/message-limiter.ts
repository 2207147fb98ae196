import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit } from '../config.js';
import type { MessageName } from '../protocol/message-names.js';
import { IpMatcher } from './ip-matcher.js';

export interface MessageLimits {
  readonly global: RateLimit;
  readonly messages: Readonly<Record<MessageName, RateLimit>>;
  /** IPs or CIDR ranges never limited: the node's own forgers. */
  readonly exempt: readonly string[];
}

/** Why a message was refused, in words a peer operator can act on. */
export interface RateLimitExceeded {
  readonly limit: string;
  readonly retryAfterMs: number;
}

/** Per-IP message rate limits: one for all messages together and one per message type. */
export class MessageLimiter {
  private readonly global: RateLimiterMemory;
  private readonly perMessage = new Map<MessageName, RateLimiterMemory>();
  private readonly exempt: IpMatcher;

  constructor(private readonly limits: MessageLimits) {
    this.exempt = new IpMatcher(limits.exempt);
    this.global = limiterFor(limits.global);
    for (const [name, limit] of Object.entries(limits.messages) as [MessageName, RateLimit][]) {
      this.perMessage.set(name, limiterFor(limit));
    }
  }

  /** Counts one message; resolves undefined when allowed, or with the limit it broke. */
  async consume(ip: string, message: MessageName): Promise<RateLimitExceeded | undefined> {
    if (this.exempt.matches(ip)) return undefined;
    const specific = this.perMessage.get(message);
    const checks: [RateLimiterMemory, string][] = [
      [this.global, `${describe(this.limits.global)} messages`],
    ];
    if (specific) checks.push([specific, `${describe(this.limits.messages[message])} ${message}`]);
    for (const [limiter, limit] of checks) {
      try {
        await limiter.consume(ip);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return { limit, retryAfterMs: rejection.msBeforeNext };
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
