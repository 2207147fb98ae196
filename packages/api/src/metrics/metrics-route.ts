import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import type { Registry } from 'prom-client';
import { AddressRanges } from '@lni/kernel';
import type { ClientAddress } from '../clients/client-address.js';

/**
 * GET /metrics: the node's Prometheus registry as text, for the IPs of `whitelist` only (the
 * figures say much about a node's operator; loopback by default).
 */
export function metricsRoutes(
  registry: () => Registry,
  whitelist: readonly string[],
  clientAddress: ClientAddress,
): ServerRoute[] {
  const allowed = new AddressRanges(whitelist);
  return [
    {
      method: 'GET',
      path: '/metrics',
      options: {
        description: 'Prometheus metrics of the node (from the IPs of metrics.whitelist only)',
        tags: ['api', 'node'],
        handler: async (request, h) => {
          const ip = clientAddress.ofRequest(request);
          if (!allowed.has(ip)) {
            throw Boom.forbidden(`${ip} is not in the API plugin's metrics.whitelist`);
          }
          const metrics = registry();
          return h
            .response(await metrics.metrics())
            .type(metrics.contentType)
            .header('Cache-Control', 'no-store');
        },
      },
    },
  ];
}
