import type { Request } from '@hapi/hapi';

/**
 * When the request's time budget runs out (epoch ms): hapi answers 503 then, so work still
 * queued for it past that moment is skipped.
 */
export function deadlineOf(request: Request): number {
  const budget = request.route.settings.timeout?.server;
  return request.info.received + (typeof budget === 'number' ? budget : 5_000);
}
