import { asClass, asValue } from 'awilix';
import { definePlugin } from '@lni/kernel';
import { apiConfigSchema, apiEnvironment, type ApiOptions } from './config.js';
import { ApiServer } from './server/api-server.js';
import { RouteRegistry } from './server/route-registry.js';
import './ledger/cradle.js';
import { ApiMetrics } from './metrics/api-metrics.js';
import { metricsRoutes } from './metrics/metrics-route.js';
import { registerSyncMetrics } from './metrics/sync-metrics.js';
import { resourceRoutes, syncSources } from './routes/index.js';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

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
  dependsOn: { optional: ['database', 'state', 'p2p'] },
  register({ container, options, logger, enabledPlugins }) {
    const routes = new RouteRegistry();
    routes.add(
      ...resourceRoutes({ container, enabledPlugins, ports: { api: options.port }, version }),
    );
    // The height in every response's X-Block-Height; 0 until the ledger has booted.
    const blockHeight = () =>
      container.hasRegistration('apiLedger') ? heightOf(() => container.cradle.apiLedger) : 0;
    const chainTip = () =>
      container.hasRegistration('apiLedger') ? container.cradle.apiLedger.tip() : undefined;
    const { metrics } = container.cradle;
    if (options.metrics.enabled) {
      routes.add(...metricsRoutes(() => metrics, options.metrics.whitelist));
    }
    if (enabledPlugins.has('state')) {
      registerSyncMetrics(metrics, syncSources(container), () => container.cradle.networkConfig);
    }
    const apiMetrics = new ApiMetrics({ metrics });
    container.register({
      apiRoutes: asValue(routes),
      apiServer: asClass(ApiServer)
        .singleton()
        .inject(() => ({ logger, apiOptions: options, blockHeight, chainTip, apiMetrics })),
    });
  },
  async boot({ container }) {
    await container.cradle.apiServer.start();
  },
  async dispose({ container }) {
    await container.cradle.apiServer.stop();
  },
});

function heightOf(ledger: () => { chainContext(): { height: number } }): number {
  try {
    return ledger().chainContext().height;
  } catch {
    return 0;
  }
}

export default apiPlugin;
