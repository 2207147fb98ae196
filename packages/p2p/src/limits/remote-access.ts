import Boom from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit, RouteOptions } from '@hapi/hapi';
import { IpMatcher } from './ip-matcher.js';

/**
 * A route rule letting only `allowed` IPs (addresses or CIDR ranges) through; others get 403.
 * Spread into a route's options: `options: { ...remoteAccessRule(['127.0.0.1']), handler }`.
 */
export function remoteAccessRule(allowed: readonly string[]): Pick<RouteOptions, 'ext'> {
  const matcher = new IpMatcher(allowed);
  const method = (request: Request, h: ResponseToolkit): Lifecycle.ReturnValue => {
    const ip = request.info.remoteAddress;
    if (!matcher.matches(ip)) {
      throw Boom.forbidden(`${request.path} is internal: ${ip} is not in remoteAccess`);
    }
    return h.continue;
  };
  return { ext: { onPreAuth: { method } } };
}
