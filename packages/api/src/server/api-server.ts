import Boom from '@hapi/boom';
import Hapi, {
  type Lifecycle,
  type Request,
  type ResponseObject,
  type ResponseToolkit,
} from '@hapi/hapi';
import type { Logger } from '@lni/kernel';
import Joi from 'joi';
import type { ClientAddress } from '../clients/client-address.js';
import type { ApiOptions } from '../config.js';
import type { LiveFeed } from '../live/live-feed.js';
import { openApiDocument } from '../openapi/openapi-document.js';
import { removedSearchRoutes } from './removed-search-routes.js';
import { JSON_TYPE } from '../resources/json-bytes.js';
import { LoadShedding } from './load-shedding.js';
import type { ApiMetrics } from '../metrics/api-metrics.js';
import { ResponseCache } from './response-cache.js';
import type { RequestRateLimit } from './request-rate-limit.js';
import type { RouteRegistry } from './route-registry.js';

export interface ApiServerDependencies {
  readonly logger: Logger;
  readonly apiOptions: ApiOptions;
  readonly apiRoutes: RouteRegistry;
  /** Height of the last block, sent as X-Block-Height on every response. */
  readonly blockHeight: () => number;
  /** The last block's id (see LedgerReader.tip); without one nothing is cached. */
  readonly chainTip: () => string | undefined;
  readonly requestRateLimit: RequestRateLimit;
  /** Who a request comes from, behind trusted proxies: limited and logged by that address. */
  readonly clientAddress: ClientAddress;
  /** Live subscriptions on the same server; undefined when disabled or without the ledger. */
  readonly liveFeed: LiveFeed | undefined;
  /** Counts each answered request by route template and status, and its duration. */
  readonly apiMetrics?: Pick<ApiMetrics, 'observe' | 'shed'>;
}

/** What a route that reads only the chain declares in `options.app`: cache it per tip. */
export interface CachedPerBlock {
  readonly cachedPerBlock?: boolean;
}

/** The tip a cacheable request began at, kept on `request.app`. */
interface CacheState {
  cacheTip?: string;
}

/** The hapi server of the public API: validation errors as 422, rate limits, block height. */
/** Answered even while the node sheds load: a load balancer's check and the scraper's view. */
const NEVER_SHED = new Set(['/health', '/metrics']);

export class ApiServer {
  readonly server: Hapi.Server;
  private readonly cache: ResponseCache | undefined;
  private readonly shedding: LoadShedding;

  constructor(private readonly deps: ApiServerDependencies) {
    const { apiOptions } = deps;
    this.server = Hapi.server({
      host: apiOptions.host,
      port: apiOptions.port,
      routes: {
        cors: apiOptions.cors
          ? { origin: ['*'], additionalExposedHeaders: ['X-Block-Height'] }
          : false,
        validate: { failAction: rejectInput },
        // Past the budget hapi answers 503 (the database cancels its part on its own budget).
        timeout: { server: apiOptions.timeBudgetMs },
      },
      router: { stripTrailingSlash: true },
    });
    this.server.validator(Joi);
    this.shedding = new LoadShedding(apiOptions.maxEventLoopDelayMs);
    this.cache = apiOptions.cache.enabled
      ? new ResponseCache({ maxBytes: apiOptions.cache.maxMegabytes * 1024 * 1024 })
      : undefined;
  }

  /** Adds the live subscriptions, the contributed routes and the OpenAPI document, then listens. */
  async start(): Promise<void> {
    await this.deps.liveFeed?.attach(this.server);
    this.server.ext('onRequest', (request, h) => this.admit(request, h));
    // After routing, before validation: a cached URL passed validation when it was cached.
    this.server.ext('onPreAuth', (request, h) => this.answerFromCache(request, h));
    this.server.ext('onPreResponse', (request, h) => this.finish(request, h));
    const { apiMetrics } = this.deps;
    if (apiMetrics) {
      this.server.events.on('response', (request) => {
        // The status written on the wire, whatever shape the response had inside hapi.
        const seconds = (Date.now() - request.info.received) / 1000;
        apiMetrics.observe(request.route.path, request.raw.res.statusCode, seconds);
      });
    }
    const routes = this.deps.apiRoutes.all();
    this.server.route(routes.map((route) => ({ ...route })));
    this.server.route(removedSearchRoutes(routes));
    this.server.route({
      method: 'GET',
      path: '/api/openapi.json',
      options: { description: 'This document: every route of the API, from its joi schemas' },
      handler: () =>
        openApiDocument(this.server.table(), { title: 'LNI public API', version: '3.0.0' }),
    });
    await this.server.start();
    this.shedding.start();
    this.deps.logger.info({ uri: this.server.info.uri }, 'Public API listening');
  }

  async stop(): Promise<void> {
    this.deps.liveFeed?.detach();
    this.shedding.stop();
    await this.server.stop({ timeout: 5_000 });
  }

  /** Sheds the request while the event loop is behind, then applies the client's rate limit. */
  private async admit(request: Request, h: ResponseToolkit): Promise<Lifecycle.ReturnValue> {
    const behind = NEVER_SHED.has(request.path) ? undefined : this.shedding.overloadedBy();
    if (behind !== undefined) {
      this.deps.apiMetrics?.shed();
      // finish() adds Retry-After and X-Block-Height to this 503 as to any.
      throw Boom.serverUnavailable(
        `the node is overloaded (its event loop is ${behind} ms behind); retry shortly or on another node`,
      );
    }
    await this.deps.requestRateLimit.admit(this.deps.clientAddress.ofRequest(request));
    return h.continue;
  }

  private finish(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
    const { response } = request;
    const height = String(this.deps.blockHeight());
    if (response instanceof Error && Boom.isBoom(response)) {
      // A request hapi cannot parse (bad percent-encoding, say) is bad input like any other: 422.
      const replaced = translateDomainError(response);
      if (replaced) {
        replaced.output.headers['X-Block-Height'] = height;
        return replaced;
      }
      if (response.output.statusCode === 400) {
        const replaced = Boom.badData(response.message);
        replaced.output.headers['X-Block-Height'] = height;
        return replaced;
      }
      // A 500 is a fault to fix; a deliberate 503 (a plugin this node does not run, the
      // database away) explains itself to the client and is no error of this node.
      const { statusCode } = response.output;
      // Busy, not broken: the client may come back shortly.
      if (statusCode === 503) response.output.headers['Retry-After'] ??= '1';
      if (statusCode === 500) {
        this.deps.logger.error(
          {
            err: response,
            method: request.method,
            path: request.path,
            ip: this.deps.clientAddress.ofRequest(request),
          },
          'Request failed',
        );
      } else if (statusCode > 500) {
        this.deps.logger.debug(
          {
            status: statusCode,
            reason: response.message,
            path: request.path,
            ip: this.deps.clientAddress.ofRequest(request),
          },
          'Request answered as unavailable',
        );
      }
      response.output.headers['X-Block-Height'] = height;
      return h.continue;
    }
    if (response && 'header' in response) {
      response.header('X-Block-Height', height);
      this.keepInCache(request, response);
    }
    return h.continue;
  }

  private answerFromCache(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
    const tip = this.cache && isCachedPerBlock(request) ? this.deps.chainTip() : undefined;
    if (tip === undefined) return h.continue;
    const payload = this.cache?.get(tip, cacheKey(request));
    if (payload !== undefined) {
      return h.response(payload).type(JSON_TYPE).takeover();
    }
    (request.app as CacheState).cacheTip = tip;
    return h.continue;
  }

  private keepInCache(request: Request, response: ResponseObject): void {
    const startedAt = (request.app as CacheState).cacheTip;
    if (startedAt === undefined || response.statusCode !== 200) return;
    // What hapi would serialize as JSON (an object or array), or a route's own encoded JSON.
    const source: unknown = response.source;
    const encoded = response.variety === 'buffer' && response.headers['content-type'] === JSON_TYPE;
    const json =
      response.variety === 'plain' &&
      (Array.isArray(source) || Object.getPrototypeOf(source ?? 0) === Object.prototype);
    if (!encoded && !json) return;
    const payload = encoded ? (source as Buffer) : Buffer.from(JSON.stringify(source));
    this.cache?.set(startedAt, this.deps.chainTip(), cacheKey(request), payload);
  }
}

/**
 * Errors of other plugins that are not server faults: criteria the database or the wallet
 * indexes refuse are the client's (422); a database that does not answer is a temporary
 * outage (503), and so is a search past its time budget or refused by a full queue (503 with
 * Retry-After).
 */
function translateDomainError(error: Boom.Boom): Boom.Boom | undefined {
  const code = (error as Boom.Boom & { code?: unknown }).code;
  if (code === 'ERR_DB_CRITERIA' || code === 'ERR_WALLET_QUERY') return Boom.badData(error.message);
  if (code === 'ERR_DATABASE') return Boom.serverUnavailable(error.message);
  if (code === 'ERR_DB_SEARCH_TIMEOUT' || code === 'ERR_WALLET_QUERY_BUSY') {
    const busy = Boom.serverUnavailable(error.message);
    busy.output.headers['Retry-After'] = '1';
    return busy;
  }
  return undefined;
}

/** Path and query as the client sent them (not the Host it used). */
const cacheKey = (request: Request): string => request.url.pathname + request.url.search;

function isCachedPerBlock(request: Request): boolean {
  return (
    request.method === 'get' &&
    (request.route.settings.app as CachedPerBlock)?.cachedPerBlock === true
  );
}

/** Joi's message already names the parameter; answer 422 with it. */
function rejectInput(_request: Request, _h: ResponseToolkit, error?: Error): Lifecycle.ReturnValue {
  throw Boom.badData(error?.message ?? 'invalid request');
}
