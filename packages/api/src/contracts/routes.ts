import type { ServerRoute } from '@hapi/hapi';

/**
 * Where other plugins contribute routes to the public API during their `register` phase (the
 * API plugin owns the HTTP server); registered as `apiRoutes`. Routes are served from boot.
 */
export interface ApiRoutes {
  add(...routes: ServerRoute[]): void;
}
