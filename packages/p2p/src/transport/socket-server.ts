import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { type Logger, canonicalAddress } from '@lni/kernel';
import { MAX_MESSAGE_BYTES } from '../wire/routes.js';
import { ServerConnection, type InboundRequest } from './server-connection.js';

export interface SocketServerOptions {
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
  readonly dispatch: (request: InboundRequest) => Promise<Buffer>;
  readonly onViolation: (ip: string, reason: string) => void;
  /** ARK's heartbeat: a ping every 15 s; a client has 5 s to show life. */
  readonly heartbeat?: { readonly interval: number; readonly timeout: number };
  /** A socket that has not said hello within this time is closed. */
  readonly helloTimeoutMs: number;
  readonly maxConcurrentRequests?: number;
  readonly maxBufferedBytes?: number;
}

const ARK_HEARTBEAT = { interval: 15_000, timeout: 5_000 } as const;

/**
 * The P2P listener: plain HTTP gets 404, a websocket upgrade on any path (as ARK accepts) becomes
 * a ServerConnection. Heartbeats go to every socket; the silent ones are closed.
 */
export class SocketServer {
  readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<ServerConnection>();
  private readonly heartbeat: { readonly interval: number; readonly timeout: number };
  private readonly idPrefix = `${randomBytes(4).toString('hex')}`;
  private counter = 0;
  private beatTimer: NodeJS.Timeout | undefined;
  private checkTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: SocketServerOptions) {
    this.heartbeat = options.heartbeat ?? ARK_HEARTBEAT;
    this.http = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
    });
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: MAX_MESSAGE_BYTES,
      perMessageDeflate: false,
    });
    this.wss.on('error', (error) => options.logger.debug({ err: error }, 'Websocket server error'));
    this.http.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, socket));
    });
    this.http.on('clientError', (_error, socket) => socket.destroy());
  }

  /** The port listened on (the real one when configured with 0). */
  get port(): number {
    return (this.http.address() as AddressInfo | null)?.port ?? this.options.port;
  }

  /** Open websocket connections, for tests and status. */
  get size(): number {
    return this.connections.size;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host, () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    this.beatTimer = setInterval(() => this.beat(), this.heartbeat.interval);
    this.beatTimer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.beatTimer);
    clearTimeout(this.checkTimer);
    for (const connection of this.connections) connection.close();
    this.wss.close();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  /** Drops every connection of `ip` (a ban). */
  dropIp(ip: string): void {
    for (const connection of this.connections) {
      if (connection.ip === ip) connection.terminate();
    }
  }

  private accept(ws: import('ws').WebSocket, socket: Socket): void {
    const ip = canonicalAddress(socket.remoteAddress ?? '');
    const connection = new ServerConnection(ws, {
      ip,
      socketId: `${Date.now()}:${this.idPrefix}:${(this.counter = (this.counter + 1) % 100_000)}`,
      heartbeat: this.heartbeat,
      dispatch: this.options.dispatch,
      onViolation: this.options.onViolation,
      maxConcurrentRequests: this.options.maxConcurrentRequests ?? 32,
      maxBufferedBytes: this.options.maxBufferedBytes ?? 4 * MAX_MESSAGE_BYTES,
    });
    this.connections.add(connection);
    const helloTimer = setTimeout(() => {
      if (!connection.isHelloed) connection.terminate();
    }, this.options.helloTimeoutMs);
    helloTimer.unref();
    ws.once('close', () => {
      clearTimeout(helloTimer);
      this.connections.delete(connection);
    });
  }

  private beat(): void {
    for (const connection of this.connections) connection.ping();
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => {
      for (const connection of this.connections) connection.checkAlive();
    }, this.heartbeat.timeout);
    this.checkTimer.unref();
  }
}
