import Boom from '@hapi/boom';
import type { ServerRoute } from '@hapi/hapi';
import type { Registry } from 'prom-client';

/**
 * GET /metrics: the node's Prometheus registry as text, for the IPs of `whitelist` only (the
 * figures say much about a node's operator; loopback by default).
 */
export function metricsRoutes(
  registry: () => Registry,
  whitelist: readonly string[],
): ServerRoute[] {
  const allowed = new Set(whitelist);
  return [
    {
      method: 'GET',
      path: '/metrics',
      options: {
        description: 'Prometheus metrics of the node (from the IPs of metrics.whitelist only)',
        tags: ['api', 'node'],
        handler: async (request, h) => {
          const ip = withoutIpv4Mapping(request.info.remoteAddress);
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

/** `::ffff:127.0.0.1`, as a dual-stack socket shows an IPv4 client, is `127.0.0.1`. */
function withoutIpv4Mapping(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}
