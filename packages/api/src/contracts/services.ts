import type { ApiRoutes } from './routes.js';

/** The services the `api` plugin registers for other plugins, under these names. */
declare module '@lni/kernel' {
  interface Cradle {
    /** Where plugins contribute routes to the public API. */
    readonly apiRoutes: ApiRoutes;
  }
}
