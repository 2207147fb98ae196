import Hapi from '@hapi/hapi';
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ClientAddress } from '../clients/client-address.js';
import { metricsRoutes } from './metrics-route.js';

async function serverWith(whitelist: readonly string[]) {
  const registry = new Registry();
  new Counter({ name: 'lni_example_total', help: 'example', registers: [registry] }).inc(2);
  const server = Hapi.server();
  server.route(metricsRoutes(() => registry, whitelist, new ClientAddress([])));
  await server.initialize();
  return server;
}

describe('GET /metrics', () => {
  it('answers a whitelisted IP (an IPv4 client of a dual-stack socket included) with the registry', async () => {
    const server = await serverWith(['127.0.0.1']);
    for (const remoteAddress of ['127.0.0.1', '::ffff:127.0.0.1']) {
      const response = await server.inject({ url: '/metrics', remoteAddress });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.payload).toContain('lni_example_total 2');
    }
  });

  it('refuses any other IP with 403 naming it and the option', async () => {
    const server = await serverWith(['127.0.0.1', '::1']);
    const response = await server.inject({ url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(response.statusCode).toBe(403);
    expect(response.result).toMatchObject({
      message: "10.1.2.3 is not in the API plugin's metrics.whitelist",
    });
  });
});
