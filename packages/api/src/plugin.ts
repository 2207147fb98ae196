import { asClass, asValue } from 'awilix';
import { definePlugin } from '@lni/kernel';
import { apiConfigSchema, apiEnvironment, type ApiOptions } from './config.js';
import { ApiServer } from './server/api-server.js';
import { RouteRegistry } from './server/route-registry.js';

declare module '@lni/kernel' {
  interface Cradle {
    /** Where plugins contribute routes to the public API. */
    readonly apiRoutes: RouteRegistry;
    readonly apiServer: ApiServer;
  }
}

export const apiPlugin = definePlugin<ApiOptions>({
  name: 'api',
  configSchema: apiConfigSchema,
  environment: apiEnvironment,
  register({ container, options, logger }) {
    container.register({
      apiRoutes: asValue(new RouteRegistry()),
      apiServer: asClass(ApiServer)
        .singleton()
        .inject(() => ({ logger, apiOptions: options, blockHeight: () => 0 })),
    });
  },
  async boot({ container }) {
    await container.cradle.apiServer.start();
  },
  async dispose({ container }) {
    await container.cradle.apiServer.stop();
  },
});

export default apiPlugin;
