import type { Nes } from '@hapi/nes';
import { createLogger } from '@lni/kernel';
import { describe, expect, it } from 'vitest';
import { ClientAddress } from '../clients/client-address.js';
import { RequestRateLimit } from '../server/request-rate-limit.js';
import { SubscriberGuard } from './subscriber-guard.js';

/** A socket as nes holds one: its address, and the websocket the guard closes or measures. */
function socketFrom(ip: string, bufferedAmount = 0, forwardedFor?: string) {
  const closed: { code?: number; reason?: string; terminated?: boolean } = {};
  const socket = {
    info: { remoteAddress: ip, 'x-forwarded-for': forwardedFor },
    isOpen: () => !closed.terminated && closed.code === undefined,
    disconnect: async () => undefined,
    _packets: [] as { message: string }[],
    _ws: {
      bufferedAmount,
      close: (code: number, reason: string) => Object.assign(closed, { code, reason }),
      terminate: () => Object.assign(closed, { terminated: true }),
    },
  };
  return { socket: socket as unknown as Nes.Socket, raw: socket, closed };
}

function guard(points = 100, trustedProxies: string[] = []) {
  const requests = new RequestRateLimit({
    enabled: true,
    points,
    windowSeconds: 60,
    whitelist: ['127.0.0.1'],
  });
  return new SubscriberGuard({
    limits: {
      enabled: true,
      maxConnectionsPerIp: 2,
      maxSubscriptionsPerConnection: 2,
      maxBacklogKilobytes: 1,
      catchUpBlocks: 10,
    },
    whitelist: requests.whitelist,
    requests,
    clientAddress: new ClientAddress(trustedProxies),
    logger: createLogger({ level: 'fatal' }),
  });
}

describe('SubscriberGuard', () => {
  it('frees an IP connection slot when a connection closes, and never limits the whitelist', () => {
    const subject = guard();
    const [a, b, c] = [socketFrom('10.0.0.1'), socketFrom('10.0.0.1'), socketFrom('10.0.0.1')];
    subject.connected(a.socket);
    subject.connected(b.socket);
    subject.connected(c.socket);
    expect(c.closed).toMatchObject({
      code: 1013,
      reason: expect.stringMatching(/^10\.0\.0\.1 has 2/),
    });
    subject.disconnected(c.socket);
    subject.disconnected(a.socket);
    const d = socketFrom('10.0.0.1');
    subject.connected(d.socket);
    expect(d.closed).toEqual({});

    const local = Array.from({ length: 5 }, () => socketFrom('127.0.0.1'));
    for (const { socket } of local) subject.connected(socket);
    expect(local.map(({ closed }) => closed)).toEqual(local.map(() => ({})));
  });

  it('counts the connections of clients behind a trusted proxy per client, not per proxy', () => {
    const subject = guard(100, ['10.9.9.9']);
    const behind = (client: string) => socketFrom('10.9.9.9', 0, `${client}, 10.9.9.9`);
    const [a1, a2, a3] = [behind('203.0.113.1'), behind('203.0.113.1'), behind('203.0.113.1')];
    const b = behind('203.0.113.2');
    for (const { socket } of [a1, a2, b, a3]) subject.connected(socket);
    expect([a1, a2, b].map(({ closed }) => closed)).toEqual([{}, {}, {}]);
    expect(a3.closed.reason).toMatch(/^203\.0\.113\.1 has 2/);
    // A peer that is no trusted proxy is counted as itself, whatever header it sends.
    const spoofed = ['198.51.100.1', '198.51.100.2', '198.51.100.3'].map((client) =>
      socketFrom('10.0.0.7', 0, client),
    );
    for (const { socket } of spoofed) subject.connected(socket);
    expect(spoofed[2]?.closed.reason).toMatch(/^10\.0\.0\.7 has 2/);
  });

  it('counts subscriptions per connection and as requests of the IP', async () => {
    const subject = guard(3);
    const { socket } = socketFrom('10.0.0.2');
    await subject.subscribing(socket);
    await subject.subscribing(socket);
    await expect(subject.subscribing(socket)).rejects.toMatchObject({
      output: { statusCode: 429 },
      message: 'a connection holds at most 2 subscriptions',
    });
    subject.unsubscribed(socket);
    // Two points went to the subscriptions: the third is the last of the window.
    await subject.subscribing(socket);
    subject.unsubscribed(socket);
    await expect(subject.subscribing(socket)).rejects.toMatchObject({
      output: { statusCode: 429 },
      message: expect.stringMatching(/^rate limit of 3 requests/),
    });
  });

  it('drops a socket once what waits for it passes the bound, counting nes queue and ws buffer', () => {
    const subject = guard();
    const keeping = socketFrom('10.0.0.3', 600);
    keeping.raw._packets.push({ message: 'x'.repeat(400) });
    expect(subject.keepsUp(keeping.socket)).toBe(true);
    keeping.raw._packets.push({ message: 'x'.repeat(100) });
    expect(subject.keepsUp(keeping.socket)).toBe(false);
    expect(keeping.closed.terminated).toBe(true);
  });
});
