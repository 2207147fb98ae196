import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../testing/test-node.js';

// Raw TCP sockets, as the limits act on connections before any HTTP or websocket byte.
let node: TestNode | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await node?.stop();
  node = undefined;
});

type Fate = 'open' | 'refused';

/** Opens a socket and reports whether the server kept it for `watchMs` or cut it. */
function open(
  port: number,
  watchMs = 150,
  localAddress = '127.0.0.1',
): Promise<{ socket: Socket; fate: Fate }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    sockets.push(socket);
    socket.on('error', () => undefined); // a reset shows up as ECONNRESET; 'close' decides
    const timer = setTimeout(() => resolve({ socket, fate: 'open' }), watchMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ socket, fate: 'refused' });
    });
  });
}

async function openMany(port: number, count: number, from = '127.0.0.1'): Promise<Fate[]> {
  for (let i = 0; i < count; i++) await open(port, 0, from);
  await new Promise((resolve) => setTimeout(resolve, 150));
  return sockets.slice(-count).map((socket) => (socket.destroyed ? 'refused' : 'open'));
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.closed) resolve();
    else socket.once('close', () => resolve());
    socket.destroy();
  });
}

describe('connection limits', () => {
  it('refuses the 11th simultaneous connection from one IP and accepts again once one closes', async () => {
    node = await startTestNode({
      // Loopback is exempt by default (the firewall script exempts it too): not here.
      options: {
        connections: { maxPerIp: 10, newPerInterval: 100, intervalSeconds: 30, exempt: [] },
      },
    });
    const fates = await openMany(node.port, 10);
    expect(fates).toEqual(Array(10).fill('open'));
    expect(node.kernel.cradle.p2pServer.gate.connectionsFrom('127.0.0.1')).toBe(10);

    expect((await open(node.port)).fate).toBe('refused');
    expect(node.kernel.cradle.p2pServer.gate.refused().perIp).toBe(1);

    await closed(sockets[0] as Socket);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await open(node.port)).fate).toBe('open');
  });

  it('refuses new connections from one IP beyond its rate, even after earlier ones closed', async () => {
    node = await startTestNode({
      options: {
        connections: { maxPerIp: 10, newPerInterval: 4, intervalSeconds: 1, exempt: [] },
      },
    });
    const first = await openMany(node.port, 4);
    expect(first).toEqual(['open', 'open', 'open', 'open']);
    await Promise.all(sockets.map((socket) => closed(socket)));

    expect((await open(node.port)).fate).toBe('refused');
    expect(node.kernel.cradle.p2pServer.gate.refused().rate).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await open(node.port)).fate).toBe('open');
  });

  it("counts the new-connection budget per source IP: one IP's burst locks out no other", async () => {
    node = await startTestNode({
      options: {
        connections: { maxPerIp: 10, newPerInterval: 4, intervalSeconds: 30, exempt: [] },
      },
    });
    expect(await openMany(node.port, 4, '127.0.0.2')).toEqual(Array(4).fill('open'));
    expect((await open(node.port, 150, '127.0.0.2')).fate).toBe('refused');
    // Another address still gets its own four.
    expect(await openMany(node.port, 4, '127.0.0.3')).toEqual(Array(4).fill('open'));
    expect(node.kernel.cradle.p2pServer.gate.refused().rate).toBe(1);
  });

  it('leaves IPs in the exempt list unlimited', async () => {
    node = await startTestNode({
      options: {
        connections: {
          maxPerIp: 2,
          newPerInterval: 2,
          intervalSeconds: 30,
          exempt: ['127.0.0.0/8'],
        },
      },
    });
    expect(await openMany(node.port, 5)).toEqual(Array(5).fill('open'));
  });
});
