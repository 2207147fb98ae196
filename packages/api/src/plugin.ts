import { asClass, asFunction, asValue } from 'awilix';
import { definePlugin } from '@lni/kernel';
import { apiConfigSchema, apiEnvironment, type ApiOptions } from './config.js';
import { ApiServer } from './server/api-server.js';
import { RouteRegistry } from './server/route-registry.js';
import './ledger/cradle.js';
import { ApiMetrics } from './metrics/api-metrics.js';
import { metricsRoutes } from './metrics/metrics-route.js';
import { registerSyncMetrics } from './metrics/sync-metrics.js';
import { resourceRoutes, syncSources } from './routes/index.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';
import { WebhookService } from './webhooks/webhook-service.js';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

declare module '@lni/kernel' {
  interface Cradle {
    /** Where plugins contribute routes to the public API. */
    readonly apiRoutes: RouteRegistry;
    readonly apiServer: ApiServer;
    /** Webhooks: events to stored deliveries to signed POSTs (with the database plugin). */
    readonly apiWebhooks: WebhookService;
  }
}

export const apiPlugin = definePlugin<ApiOptions>({
  name: 'api',
  configSchema: apiConfigSchema,
  environment: apiEnvironment,
  dependsOn: { optional: ['database', 'state', 'p2p'] },
  register({ container, options, logger, events, enabledPlugins }) {
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
    const webhooks = options.webhooks.enabled && enabledPlugins.has('database');
    if (webhooks) {
      const { whitelist, enabled: _enabled, ...delivery } = options.webhooks;
      container.register({
        apiWebhooks: asFunction(
          ({ webhookStorage }) =>
            new WebhookService({ events, webhookStorage, options: delivery, logger, metrics }),
        ).singleton(),
      });
      routes.add(
        ...webhookRoutes({
          storage: () => container.cradle.webhookStorage,
          whitelist,
          changed: () => container.cradle.apiWebhooks.changed(),
        }),
      );
    }
    container.register({
      apiRoutes: asValue(routes),
      apiServer: asClass(ApiServer)
        .singleton()
        .inject(() => ({ logger, apiOptions: options, blockHeight, chainTip, apiMetrics })),
    });
  },
  async boot({ container }) {
    await container.cradle.apiServer.start();
    if (container.hasRegistration('apiWebhooks')) await container.cradle.apiWebhooks.start();
  },
  async dispose({ container }) {
    if (container.hasRegistration('apiWebhooks')) await container.cradle.apiWebhooks.stop();
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
