import type WebSocket from 'ws';
import { decodeFrame, encodeFrame, HELLO_VERSION, type Frame } from '../wire/frame.js';
import { GRACEFUL_ERROR_STATUS } from '../wire/routes.js';
import { RouteError } from './route-error.js';

/** A request as the server's dispatcher sees it. */
export interface InboundRequest {
  readonly path: string;
  readonly payload: Buffer;
  readonly ip: string;
}

export interface ServerConnectionOptions {
  readonly ip: string;
  readonly socketId: string;
  readonly heartbeat: { readonly interval: number; readonly timeout: number };
  /** Answers a request with the reply's payload, or throws RouteError. */
  readonly dispatch: (request: InboundRequest) => Promise<Buffer>;
  /** A protocol violation by the client; the connection is closed right after. */
  readonly onViolation: (ip: string, reason: string) => void;
  /** Requests of this socket being handled at once; one more is a violation. */
  readonly maxConcurrentRequests: number;
  /** Replies waiting to be sent to a client that does not read; beyond, it is dropped. */
  readonly maxBufferedBytes: number;
}

const MIN_PING_INTERVAL_MS = 1_000;

/**
 * One inbound socket in ARK Core 3.x's binary nes dialect: a hello first, then requests, each
 * answered under its id, and pings (never more than one a second), which get no answer. Any
 * error closes the socket without a reply, except 499; so does every protocol violation, which
 * is also reported so its sender is penalised.
 */
export class ServerConnection {
  private helloed = false;
  private processing = 0;
  private lastPing = 0;
  /** Whether the client showed life since the last heartbeat check (ARK's `_pinged`). */
  private active = true;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly options: ServerConnectionOptions,
  ) {
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('ping', () => this.violation('sent a websocket ping'));
    socket.on('pong', () => this.violation('sent a websocket pong'));
    // ws reports frames it cannot take (too large, bad opcodes, bad UTF-8) as errors.
    socket.on('error', (error) => this.violation(`websocket error: ${error.message}`));
    socket.once('close', () => {
      this.closed = true;
    });
  }

  get ip(): string {
    return this.options.ip;
  }

  get isHelloed(): boolean {
    return this.helloed;
  }

  /** The server's heartbeat: a ping frame; the client has `timeout` ms to show life. */
  ping(): void {
    this.send(encodeFrame({ type: 'ping', id: 1 }), false);
  }

  /** Called `timeout` ms after a ping: a silent, idle client is disconnected. */
  checkAlive(): void {
    if (!this.active && this.processing === 0) {
      this.socket.close();
      return;
    }
    this.active = false;
  }

  terminate(): void {
    this.closed = true;
    this.socket.terminate();
  }

  close(): void {
    this.closed = true;
    this.socket.close();
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (!isBinary || !Buffer.isBuffer(data)) return this.violation('sent a text message');
    let frame: Frame;
    try {
      frame = decodeFrame(data);
    } catch (error) {
      return this.violation(`sent a malformed frame: ${(error as Error).message}`);
    }
    this.active = true;
    switch (frame.type) {
      case 'ping':
        return this.receivePing();
      case 'hello':
        return this.receiveHello(frame);
      case 'request':
        return void this.receiveRequest(frame);
      default:
        return this.violation(`sent a frame of type ${frame.type}`);
    }
  }

  private receivePing(): void {
    const now = Date.now();
    if (now - this.lastPing < MIN_PING_INTERVAL_MS) return this.violation('pinged too often');
    this.lastPing = now;
  }

  private receiveHello(frame: Frame): void {
    if (this.helloed) return this.violation('said hello twice');
    if (frame.version !== HELLO_VERSION) {
      return this.violation(`said hello in protocol version ${frame.version}, not 2`);
    }
    this.helloed = true;
    const { heartbeat, socketId } = this.options;
    this.send(encodeFrame({ type: 'hello', id: frame.id, heartbeat, socket: socketId }));
  }

  private async receiveRequest(frame: Frame): Promise<void> {
    if (!this.helloed) return this.violation('sent a request before hello');
    if (this.processing >= this.options.maxConcurrentRequests) {
      return this.violation(
        `sent more than ${this.options.maxConcurrentRequests} requests at once`,
      );
    }
    this.processing += 1;
    try {
      const payload = await this.options.dispatch({
        path: frame.path,
        payload: frame.payload,
        ip: this.options.ip,
      });
      this.send(encodeFrame({ type: 'request', id: frame.id, payload }));
    } catch (error) {
      if (error instanceof RouteError && error.statusCode === GRACEFUL_ERROR_STATUS) {
        const payload = Buffer.from(JSON.stringify({ error: 'Not Ready', message: error.message }));
        this.send(encodeFrame({ type: 'request', id: frame.id, statusCode: 499, payload }));
      } else {
        // ARK's rule: an error closes the socket without a reply. The dispatcher penalised.
        this.terminate();
      }
    } finally {
      this.processing -= 1;
    }
  }

  private send(frame: Buffer, countsAsLife = true): void {
    if (this.closed) return;
    if (this.socket.bufferedAmount + frame.byteLength > this.options.maxBufferedBytes) {
      // A client that does not read its replies would make us buffer without bound.
      this.terminate();
      return;
    }
    this.socket.send(frame, (error) => {
      if (error) this.terminate();
      else if (countsAsLife) this.active = true;
    });
  }

  private violation(reason: string): void {
    if (this.closed) return;
    this.options.onViolation(this.options.ip, reason);
    this.terminate();
  }
}
