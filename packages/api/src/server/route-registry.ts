import type { ServerRoute } from '@hapi/hapi';
import type { ApiRoutes } from '../contracts/routes.js';

/**
 * The API plugin owns the HTTP server; other plugins contribute routes here during their
 * `register` phase instead of reaching for the server. Routes are added at boot.
 */
export class RouteRegistry implements ApiRoutes {
  private readonly routes: ServerRoute[] = [];

  add(...routes: ServerRoute[]): void {
    this.routes.push(...routes);
  }

  all(): readonly ServerRoute[] {
    return this.routes;
  }
}
