import { asClass, asFunction, asValue, type AwilixContainer } from 'awilix';
import { isValidAddress } from '@lni/crypto';
import { definePlugin, type Cradle, type EventBus, type Logger } from '@lni/kernel';
import { apiConfigSchema, apiEnvironment, type ApiOptions } from './config.js';
import { CatchUp } from './live/catch-up.js';
import { LiveFeed } from './live/live-feed.js';
import { LiveMessages } from './live/live-messages.js';
import { SubscriberGuard } from './live/subscriber-guard.js';
import { syncHealthCheck } from './health/sync-health-check.js';
import { WriterLag, writerLagHealthCheck } from './lag/writer-lag.js';
import { forwardedRoutes } from './upstream/forwarded-routes.js';
import { UpstreamClient } from './upstream/upstream-client.js';
import { ClientAddress } from './clients/client-address.js';
import { ApiServer } from './server/api-server.js';
import { RequestRateLimit } from './server/request-rate-limit.js';
import { RouteRegistry } from './server/route-registry.js';
import './contracts/index.js';
import '@lni/p2p/contracts';
import '@lni/state/contracts';
import type { ApiSources } from './sources.js';
import { ApiMetrics } from './metrics/api-metrics.js';
import { metricsRoutes } from './metrics/metrics-route.js';
import { registerSyncMetrics } from './metrics/sync-metrics.js';
import { resourceRoutes, syncSources } from './routes/index.js';
import { eventRoutes } from './routes/events.js';
import { statusPageRoutes } from './status/status-page.js';
import { toJsonValue } from './resources/json-values.js';
import { walletResource } from './resources/wallet.js';
import type { WebhookDataSources } from './webhooks/webhook-event-data.js';
import { webhookRoutes } from './webhooks/webhook-routes.js';
import { WebhookService } from './webhooks/webhook-service.js';
import { apiSchema } from './webhooks/storage/api-schema.js';
import { WebhookStorage } from './webhooks/storage/webhook-storage.js';
import type { Service } from '@lni/database/contracts';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

// The API's own services; other plugins use `apiRoutes` (contracts/services.ts).
declare module '@lni/kernel' {
  interface Cradle {
    readonly apiServer: ApiServer;
    /** Webhooks: events to stored deliveries to signed POSTs (with the database plugin). */
    readonly apiWebhooks: WebhookService;
    /** Webhooks, their deliveries and attempts: the API's own tables. */
    readonly webhookStorage: Service<WebhookStorage>;
  }
}

/** An api node's lag behind the writer, and how to stop following it, per node (container). */
const lagByNode = new WeakMap<AwilixContainer<Cradle>, WriterLag>();
const unfollowByNode = new WeakMap<AwilixContainer<Cradle>, () => void>();

/** The package name ARK's explorers and wallets look for to find a peer's public API. */
const API_SERVICE = '@arkecosystem/core-api';

export const apiPlugin = definePlugin<ApiOptions>({
  name: 'api',
  configSchema: apiConfigSchema,
  environment: apiEnvironment,
  listensOn: ({ host, port }) => [{ option: 'port', host, port }],
  dependsOn: { optional: ['database', 'state', 'sql-ledger', 'p2p'] },
  register({ container, options, logger, events, enabledPlugins }) {
    // An api node: the ledger read from the writer's tables, no pool, a read-only database.
    const writer = enabledPlugins.has('state');
    const ledgerHere = writer || enabledPlugins.has('sql-ledger');
    // Live subscriptions and the status page need the ledger.
    const live = options.subscriptions.enabled && ledgerHere;
    const sources = apiSources(container);
    // The height in every response's X-Block-Height; 0 until the ledger has booted.
    const blockHeight = () => heightOf(sources.optional.ledger);
    const writerLag = writer
      ? undefined
      : new WriterLag({ ownHeight: blockHeight, maxLagBlocks: options.maxLagBlocks });
    const routes = new RouteRegistry();
    routes.add(
      ...resourceRoutes({
        sources,
        enabledPlugins,
        ports: { api: options.port },
        version,
        healthChecks: container.cradle.healthChecks,
        statusPage: live,
        writerLag: writerLag && (() => writerLag.report()),
      }),
    );
    const chainTip = () => sources.optional.ledger()?.tip();
    const clientAddress = new ClientAddress(options.trustedProxies);
    const requestRateLimit = new RequestRateLimit(options.rateLimit);
    const feed = live
      ? liveFeed(sources, options, logger, events, requestRateLimit, clientAddress)
      : undefined;
    if (feed) routes.add(...statusPageRoutes());
    if (feed && enabledPlugins.has('database')) {
      const catchUp = new CatchUp({
        ledger: sources.required.ledger,
        blocks: sources.required.blockQuery,
        transactions: sources.required.transactionQuery,
        catchUpBlocks: options.subscriptions.catchUpBlocks,
        isAddress: addressCheck(sources),
      });
      routes.add(...eventRoutes(() => catchUp));
    }
    const { metrics } = container.cradle;
    if (options.metrics.enabled) {
      routes.add(...metricsRoutes(() => metrics, options.metrics.whitelist, clientAddress));
    }
    if (writer) {
      registerSyncMetrics(metrics, syncSources(sources), sources.required.network);
      container.cradle.healthChecks.add(
        syncHealthCheck(syncSources(sources), sources.required.network),
      );
    }
    if (writerLag) {
      container.cradle.healthChecks.add(writerLagHealthCheck(writerLag));
      if (options.upstream.length === 0) {
        logger.warn(
          'No upstream node configured (API option upstream, CORE_API_UPSTREAM): POST /api/transactions, the pool and webhook routes will answer 503',
        );
      }
      const upstream = new UpstreamClient({
        upstream: options.upstream,
        timeoutMs: options.upstreamTimeoutMs,
        logger,
      });
      routes.add(
        ...forwardedRoutes({
          client: () => upstream,
          webhooks: options.webhooks.enabled,
          webhookWhitelist: options.webhooks.whitelist,
          clientAddress,
        }),
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
    // Webhooks are stored and delivered by the writer alone; an api node forwards their routes.
    const webhooks = options.webhooks.enabled && enabledPlugins.has('database') && writer;
    if (webhooks) {
      const { whitelist, enabled: _enabled, ...delivery } = options.webhooks;
      container.register({
        apiWebhooks: asFunction(
          ({ webhookStorage }) =>
            new WebhookService({
              events,
              webhookStorage,
              sources: webhookDataSources(sources, enabledPlugins.has('state')),
              options: delivery,
              logger,
              metrics,
            }),
        ).singleton(),
      });
      routes.add(
        ...webhookRoutes({
          storage: sources.required.webhookStorage,
          whitelist,
          clientAddress,
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
          apiRoutes: routes,
          blockHeight,
          chainTip,
          requestRateLimit,
          clientAddress,
          liveFeed: feed,
          apiMetrics,
        })),
    });
    if (writerLag) lagByNode.set(container, writerLag);
  },
  async boot({ container }) {
    const lag = lagByNode.get(container);
    if (lag && container.hasRegistration('commitSignals')) {
      unfollowByNode.set(container, lag.follow(container.cradle.commitSignals));
    }
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
    unfollowByNode.get(container)?.();
    if (container.hasRegistration('apiWebhooks')) await container.cradle.apiWebhooks.stop();
    await container.cradle.apiServer.stop();
  },
});

/**
 * What the API reads from other plugins, looked up in the container when a request asks: the
 * API's only reach into the container besides its own services.
 */
function apiSources(container: AwilixContainer<Cradle>): ApiSources {
  const optional =
    <K extends keyof Cradle>(name: K) =>
    (): Cradle[K] | undefined =>
      container.hasRegistration(name) ? container.cradle[name] : undefined;
  return {
    required: {
      ledger: () => container.cradle.ledger,
      pool: () => container.cradle.transactionPool,
      network: () => container.cradle.networkConfig,
      transactionQuery: () => container.cradle.transactionQuery,
      blockQuery: () => container.cradle.blockQuery,
      roundStorage: () => container.cradle.roundStorage,
      missedSlots: () => container.cradle.missedSlots,
      webhookStorage: () => container.cradle.webhookStorage,
    },
    optional: {
      ledger: optional('ledger'),
      network: optional('networkConfig'),
      poolLimits: optional('poolLimits'),
      peers: optional('peers'),
    },
  };
}

function liveFeed(
  sources: ApiSources,
  options: ApiOptions,
  logger: Logger,
  events: EventBus,
  requests: RequestRateLimit,
  clientAddress: ClientAddress,
): LiveFeed {
  return new LiveFeed({
    events,
    messages: new LiveMessages(sources.required.ledger),
    guard: new SubscriberGuard({
      limits: options.subscriptions,
      whitelist: requests.whitelist,
      requests,
      clientAddress,
      logger,
    }),
    logger,
    isAddress: addressCheck(sources),
  });
}

/** A missing delegate's wallet, as the wallet routes show it, when the ledger runs here. */
function webhookDataSources(sources: ApiSources, withLedger: boolean): WebhookDataSources {
  if (!withLedger) return {};
  return {
    delegateWallet: (publicKey) => {
      const ledger = sources.required.ledger();
      const wallet = ledger.findWallet(ledger.chainContext().addressOf(publicKey));
      // Webhook data is made at once: only the in-memory ledger answers so (an api node's
      // does not, and its webhooks then carry the delegate's public key alone).
      if (wallet === undefined || wallet instanceof Promise) return undefined;
      return toJsonValue(walletResource(wallet)) ?? undefined;
    },
  };
}

/** Whether a string is an address of the network the node runs (known once state registered). */
function addressCheck(sources: ApiSources): (value: string) => boolean {
  return (value) => {
    const network = sources.optional.network();
    return network !== undefined && isValidAddress(value, network.network.pubKeyHash);
  };
}

/** The ledger's height, 0 without a ledger or before it booted. */
function heightOf(ledger: () => { chainContext(): { height: number } } | undefined): number {
  try {
    return ledger()?.chainContext().height ?? 0;
  } catch {
    return 0;
  }
}

export default apiPlugin;
