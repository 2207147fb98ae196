import { asClass, asFunction, asValue, type AwilixContainer } from 'awilix';
import { isValidAddress } from '@lni/crypto';
import { definePlugin, type Cradle, type Logger } from '@lni/kernel';
import { apiConfigSchema, apiEnvironment, type ApiOptions } from './config.js';
import { CatchUp } from './live/catch-up.js';
import { LiveFeed } from './live/live-feed.js';
import type { LiveEventSource } from './live/live-events.js';
import { LiveMessages } from './live/live-messages.js';
import { SubscriberGuard } from './live/subscriber-guard.js';
import { syncHealthCheck } from './health/sync-health-check.js';
import { ApiServer } from './server/api-server.js';
import { RequestRateLimit } from './server/request-rate-limit.js';
import { RouteRegistry } from './server/route-registry.js';
import './ledger/cradle.js';
import { ApiMetrics } from './metrics/api-metrics.js';
import { metricsRoutes } from './metrics/metrics-route.js';
import { registerSyncMetrics } from './metrics/sync-metrics.js';
import { resourceRoutes, syncSources } from './routes/index.js';
import { eventRoutes } from './routes/events.js';
import { statusPageRoutes } from './status/status-page.js';
import { toJsonValue } from './resources/json-values.js';
import { walletResource } from './resources/wallet.js';
import type { WebhookDataSources } from './webhooks/webhook-event-data.js';
import type { WebhookEventSource } from './webhooks/webhook-events.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';
import { WebhookService } from './webhooks/webhook-service.js';
import { apiSchema } from './webhooks/storage/api-schema.js';
import { WebhookStorage } from './webhooks/storage/webhook-storage.js';
import type { Service } from '@lni/database/contracts';
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
    /** Webhooks, their deliveries and attempts: the API's own tables. */
    readonly webhookStorage: Service<WebhookStorage>;
  }
}

/** The package name ARK's explorers and wallets look for to find a peer's public API. */
const API_SERVICE = '@arkecosystem/core-api';

export const apiPlugin = definePlugin<ApiOptions>({
  name: 'api',
  configSchema: apiConfigSchema,
  environment: apiEnvironment,
  listensOn: ({ host, port }) => [{ option: 'port', host, port }],
  dependsOn: { optional: ['database', 'state', 'p2p'] },
  register({ container, options, logger, events, enabledPlugins }) {
    // Live subscriptions and the status page need the ledger.
    const live = options.subscriptions.enabled && enabledPlugins.has('state');
    const routes = new RouteRegistry();
    routes.add(
      ...resourceRoutes({
        container,
        enabledPlugins,
        ports: { api: options.port },
        version,
        healthChecks: container.cradle.healthChecks,
        statusPage: live,
      }),
    );
    // The height in every response's X-Block-Height; 0 until the ledger has booted.
    const blockHeight = () =>
      container.hasRegistration('apiLedger') ? heightOf(() => container.cradle.apiLedger) : 0;
    const chainTip = () =>
      container.hasRegistration('apiLedger') ? container.cradle.apiLedger.tip() : undefined;
    const requestRateLimit = new RequestRateLimit(options.rateLimit);
    const feed = live
      ? liveFeed(container, options, logger, events as unknown as LiveEventSource, requestRateLimit)
      : undefined;
    if (feed) routes.add(...statusPageRoutes());
    if (feed && enabledPlugins.has('database')) {
      const catchUp = new CatchUp({
        ledger: () => container.cradle.apiLedger,
        blocks: () => container.cradle.blockQuery,
        transactions: () => container.cradle.transactionQuery,
        catchUpBlocks: options.subscriptions.catchUpBlocks,
        isAddress: addressCheck(container),
      });
      routes.add(...eventRoutes(() => catchUp));
    }
    const { metrics } = container.cradle;
    if (options.metrics.enabled) {
      routes.add(...metricsRoutes(() => metrics, options.metrics.whitelist));
    }
    if (enabledPlugins.has('state')) {
      registerSyncMetrics(metrics, syncSources(container), () => container.cradle.networkConfig);
      container.cradle.healthChecks.add(
        syncHealthCheck(syncSources(container), () => container.cradle.networkConfig),
      );
    }
    container.cradle.publicServices.add({
      name: API_SERVICE,
      port: () => Number(container.cradle.apiServer.server.info.port),
    });
    const apiMetrics = new ApiMetrics({ metrics });
    if (container.hasRegistration('schemaRegistry')) {
      container.cradle.schemaRegistry.add('api', apiSchema);
      container.register({ webhookStorage: asClass(WebhookStorage).singleton() });
    }
    const webhooks = options.webhooks.enabled && enabledPlugins.has('database');
    if (webhooks) {
      const { whitelist, enabled: _enabled, ...delivery } = options.webhooks;
      container.register({
        apiWebhooks: asFunction(
          ({ webhookStorage }) =>
            new WebhookService({
              // Declared by the plugins that publish them, which the API does not import.
              events: events as unknown as WebhookEventSource,
              webhookStorage,
              sources: webhookDataSources(container, enabledPlugins.has('state')),
              options: delivery,
              logger,
              metrics,
            }),
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
        .inject(() => ({
          logger,
          apiOptions: options,
          blockHeight,
          chainTip,
          requestRateLimit,
          liveFeed: feed,
          apiMetrics,
        })),
    });
  },
  async boot({ container }) {
    await container.cradle.apiServer.start();
    if (container.hasRegistration('apiWebhooks')) {
      await container.cradle.apiWebhooks.start();
      // With the ledger here, a block's deliveries are written in the block's transaction.
      if (container.hasRegistration('blockCommit')) {
        container.cradle.apiWebhooks.writeWithBlocks(container.cradle.blockCommit);
      }
    }
  },
  async dispose({ container }) {
    if (container.hasRegistration('apiWebhooks')) await container.cradle.apiWebhooks.stop();
    await container.cradle.apiServer.stop();
  },
});

function liveFeed(
  container: AwilixContainer<Cradle>,
  options: ApiOptions,
  logger: Logger,
  events: LiveEventSource,
  requests: RequestRateLimit,
): LiveFeed {
  return new LiveFeed({
    events,
    messages: new LiveMessages(() => container.cradle.apiLedger),
    guard: new SubscriberGuard({
      limits: options.subscriptions,
      whitelist: requests.whitelist,
      requests,
      logger,
    }),
    logger,
    isAddress: addressCheck(container),
  });
}

/** A missing delegate's wallet, as the wallet routes show it, when the ledger runs here. */
function webhookDataSources(
  container: AwilixContainer<Cradle>,
  withLedger: boolean,
): WebhookDataSources {
  if (!withLedger) return {};
  return {
    delegateWallet: (publicKey) => {
      const ledger = container.cradle.apiLedger;
      const wallet = ledger.findWallet(ledger.chainContext().addressOf(publicKey));
      return wallet && (toJsonValue(walletResource(wallet)) ?? undefined);
    },
  };
}

/** Whether a string is an address of the network the node runs (known once state registered). */
function addressCheck(container: AwilixContainer<Cradle>): (value: string) => boolean {
  return (value) =>
    container.hasRegistration('networkConfig') &&
    isValidAddress(value, container.cradle.networkConfig.network.pubKeyHash);
}

function heightOf(ledger: () => { chainContext(): { height: number } }): number {
  try {
    return ledger().chainContext().height;
  } catch {
    return 0;
  }
}

export default apiPlugin;
