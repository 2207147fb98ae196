import Boom from '@hapi/boom';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AddressRanges } from '@lni/kernel';
import type { ApiOptions } from '../config.js';

/**
 * The per-IP request limit of the API: HTTP requests, websocket connections and subscriptions
 * all draw on the same points. Whitelisted IPs are never limited. The IP is the client's, as
 * `ClientAddress` resolves it behind trusted proxies.
 */
export class RequestRateLimit {
  private readonly limiter: RateLimiterMemory | undefined;
  readonly whitelist: AddressRanges;

  constructor(private readonly options: ApiOptions['rateLimit']) {
    this.whitelist = new AddressRanges(options.whitelist);
    this.limiter = options.enabled
      ? new RateLimiterMemory({ points: options.points, duration: options.windowSeconds })
      : undefined;
  }

  /** Resolves when `ip` may go on; throws a 429 with Retry-After when it may not. */
  async admit(ip: string): Promise<void> {
    if (!this.limiter || this.whitelist.has(ip)) return;
    try {
      await this.limiter.consume(ip);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const { points, windowSeconds } = this.options;
      const error = Boom.tooManyRequests(
        `rate limit of ${points} requests per ${windowSeconds} s exceeded for ${ip}`,
      );
      error.output.headers['Retry-After'] = String(Math.ceil(rejection.msBeforeNext / 1000));
      throw error;
    }
  }
}
