import Hapi from '@hapi/hapi';
import { createLogger } from '@lni/kernel';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientAddress } from '../clients/client-address.js';
import { forwardedRoutes } from './forwarded-routes.js';
import { UpstreamClient } from './upstream-client.js';

/** An upstream that answers 200 and keeps the headers of each request it got. */
let upstream: Server;
const seen: IncomingHttpHeaders[] = [];
let apiNode: Hapi.Server;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    seen.push(request.headers);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const client = new UpstreamClient({
    upstream: [`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`],
    timeoutMs: 2_000,
    logger: createLogger({ level: 'fatal' }),
  });
  apiNode = Hapi.server();
  apiNode.route(
    forwardedRoutes({
      client: () => client,
      webhooks: true,
      webhookWhitelist: ['203.0.113.9'],
      clientAddress: new ClientAddress(['10.0.0.2']),
    }),
  );
  await apiNode.initialize();
});
afterAll(async () => {
  await apiNode?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

const submit = (remoteAddress: string, forwardedFor?: string) =>
  apiNode.inject({
    method: 'POST',
    url: '/api/transactions',
    payload: '{"transactions":[]}',
    remoteAddress,
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
    },
  });

describe('routes an api node forwards upstream', () => {
  it('tell the upstream the client behind a trusted proxy, and nothing the client wrote itself', async () => {
    expect((await submit('10.0.0.2', '6.6.6.6, 203.0.113.7')).statusCode).toBe(200);
    expect(seen.at(-1)?.['x-forwarded-for']).toBe('203.0.113.7');
  });

  it('tell the upstream the peer when the peer is no trusted proxy, whatever its header says', async () => {
    expect((await submit('198.51.100.4', '203.0.113.7')).statusCode).toBe(200);
    expect(seen.at(-1)?.['x-forwarded-for']).toBe('198.51.100.4');
    expect((await submit('::ffff:198.51.100.5')).statusCode).toBe(200);
    expect(seen.at(-1)?.['x-forwarded-for']).toBe('198.51.100.5');
  });

  it('check the webhook whitelist against that client', async () => {
    const list = (remoteAddress: string, forwardedFor: string) =>
      apiNode.inject({
        url: '/api/webhooks',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    expect((await list('10.0.0.2', '203.0.113.9')).statusCode).toBe(200);
    const spoofed = await list('198.51.100.4', '203.0.113.9');
    expect(spoofed.statusCode).toBe(403);
    expect(spoofed.result).toMatchObject({
      message: "198.51.100.4 is not in the API plugin's webhooks.whitelist",
    });
  });
});
