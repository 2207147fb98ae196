import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { AddressRanges } from '@lni/kernel';
import type { ClientAddress } from '../clients/client-address.js';
import { NoUpstreamError, type UpstreamClient } from './upstream-client.js';

/** A route this node does not serve itself: method, path and what it is for. */
interface ForwardedRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly description: string;
  readonly tags: readonly string[];
}

/** The pool's routes: an api node holds no pool. */
const POOL_ROUTES: readonly ForwardedRoute[] = [
  {
    method: 'POST',
    path: '/api/transactions',
    description:
      'Submits signed transactions: forwarded to an upstream node, answered as it answers',
    tags: ['api', 'transactions'],
  },
  {
    method: 'GET',
    path: '/api/transactions/unconfirmed',
    description: 'Transactions waiting in the pool of an upstream node',
    tags: ['api', 'transactions'],
  },
  {
    method: 'GET',
    path: '/api/transactions/unconfirmed/{id}',
    description: 'An unconfirmed transaction, from the pool of an upstream node',
    tags: ['api', 'transactions'],
  },
];

/** Webhooks: written and delivered by the writer alone; an api node's database is read-only. */
const WEBHOOK_ROUTES: readonly ForwardedRoute[] = [
  ['GET', '/api/webhooks'],
  ['POST', '/api/webhooks'],
  ['GET', '/api/webhooks/{id}'],
  ['PUT', '/api/webhooks/{id}'],
  ['DELETE', '/api/webhooks/{id}'],
  ['GET', '/api/webhooks/{id}/deliveries'],
].map(([method, path]) => ({
  method: method as ForwardedRoute['method'],
  path: path as string,
  description: 'Webhooks: forwarded to an upstream node, which stores and delivers them',
  tags: ['api', 'webhooks'],
}));

/** Request headers worth passing on; hop-by-hop ones and the host are the connection's. */
const PASSED_HEADERS = ['content-type', 'accept', 'authorization'];

export interface ForwardedRouteOptions {
  readonly client: () => UpstreamClient;
  /** The webhook routes too (when the API's webhooks are enabled). */
  readonly webhooks: boolean;
  /** IPs allowed to manage webhooks here; the upstream then checks this node's own address. */
  readonly webhookWhitelist: readonly string[];
  /** Who a request comes from, behind trusted proxies: checked and passed on. */
  readonly clientAddress: ClientAddress;
}

/**
 * The routes an api node passes to its upstream nodes, with the upstream's status, body and
 * content headers. No upstream answering is this node's trouble, not the client's: 503 with
 * Retry-After, naming each upstream and why.
 */
export function forwardedRoutes(options: ForwardedRouteOptions): ServerRoute[] {
  const allowed = new AddressRanges(options.webhookWhitelist);
  const routes = [...POOL_ROUTES, ...(options.webhooks ? WEBHOOK_ROUTES : [])];
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    options: {
      description: route.description,
      tags: [...route.tags],
      // The upstream validates and parses: the body is passed on byte for byte.
      ...(route.method === 'GET' || route.method === 'DELETE'
        ? {}
        : { payload: { parse: false, output: 'data' as const } }),
      handler: async (request: Request, h: ResponseToolkit) => {
        const client = options.clientAddress.ofRequest(request);
        if (route.tags.includes('webhooks') && !allowed.has(client)) {
          throw Boom.forbidden(`${client} is not in the API plugin's webhooks.whitelist`);
        }
        try {
          const answer = await options.client().forward({
            method: route.method,
            path: request.url.pathname + request.url.search,
            headers: passedHeaders(request, client),
            body: Buffer.isBuffer(request.payload) ? request.payload : undefined,
          });
          const response = h.response(answer.body).code(answer.status);
          for (const [name, value] of Object.entries(answer.headers)) response.header(name, value);
          return response;
        } catch (error) {
          if (!(error instanceof NoUpstreamError)) throw error;
          throw Boom.serverUnavailable(error.message);
        }
      },
    },
  }));
}

function passedHeaders(request: Request, client: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // The client alone: what is left of it in the header the client wrote itself, and an upstream
  // that trusts this node takes the rightmost address as the client.
  headers['x-forwarded-for'] = client;
  return headers;
}
