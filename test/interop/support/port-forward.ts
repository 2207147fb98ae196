import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const RELAY = fileURLToPath(new URL('./bin/unix-to-tcp.mjs', import.meta.url));

/**
 * Makes a TCP port of a node's namespace reachable from the test process on 127.0.0.1,
 * without giving the host any route into 10.77.0.0/24: a relay inside the namespace listens on
 * a Unix socket (the filesystem is shared) and the test process listens on a free loopback
 * port and pipes each connection to that socket. The node sees these connections arrive from
 * its own loopback.
 */
export class PortForward {
  private constructor(
    private readonly relay: ChildProcess,
    private readonly relayExited: Promise<unknown>,
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    readonly hostPort: number,
  ) {}

  static async open(namespace: string, port: number, socketPath: string): Promise<PortForward> {
    const relay = spawn(
      'ip',
      ['netns', 'exec', namespace, process.execPath, RELAY, socketPath, String(port)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const relayExited = once(relay, 'exit');
    const lines = createInterface({ input: relay.stdout as NonNullable<typeof relay.stdout> });
    const ready = await Promise.race([
      once(lines, 'line').then(([line]) => line as string),
      relayExited.then(([code]) => `exited with ${code}`),
    ]);
    if (ready !== 'listening') {
      relay.kill('SIGKILL');
      throw new Error(`port relay in ${namespace} for port ${port}: ${ready}`);
    }
    const sockets = new Set<Socket>();
    const server = createServer((client) => {
      const upstream = connect(socketPath);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no forward port');
    return new PortForward(relay, relayExited, server, sockets, address.port);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.relay.kill('SIGTERM');
    await this.relayExited;
  }

  /** For exit handlers. */
  closeSync(): void {
    this.relay.kill('SIGKILL');
  }
}
