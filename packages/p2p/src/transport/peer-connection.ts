import WebSocket from 'ws';
import { MalformedAnswerError, PeerResponseError } from '../errors.js';
import { decodeFrame, encodeFrame, HELLO_VERSION, type Frame } from '../wire/frame.js';
import { MAX_MESSAGE_BYTES } from '../wire/routes.js';
import { WireError } from '../wire/wire-error.js';

export interface PeerConnectionOptions {
  /** `host:port` of the peer, for errors and logs; IPv6 hosts in brackets. */
  readonly address: string;
  /** Connect and hello, and the default for each request. */
  readonly timeoutMs: number;
  /** Called once when the connection closes, whoever closed it. */
  readonly onClose?: (reason: string) => void;
}

interface Pending {
  readonly path: string;
  readonly maxReplyBytes: number;
  readonly resolve: (payload: Buffer) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** A server that sends nothing for this long after its hello is gone (ARK's client: 20 s). */
const DEFAULT_SILENCE_MS = 20_000;
const MIN_PING_INTERVAL_MS = 1_000;

/**
 * An outgoing connection in ARK Core 3.x's binary nes dialect: a hello, then requests matched to
 * replies by id, each with its own timeout. The server's pings are answered; a server silent for
 * its heartbeat interval plus timeout, or one that breaks the protocol, is disconnected, and
 * every request in flight fails. A server reports most errors by closing the socket.
 */
export class PeerConnection {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private silenceMs = DEFAULT_SILENCE_MS;
  private watchdog: NodeJS.Timeout | undefined;
  private lastPing = 0;
  private closeReason: string | undefined;

  private constructor(
    private readonly socket: WebSocket,
    private readonly options: PeerConnectionOptions,
  ) {}

  /** Connects and says hello; rejects with PeerResponseError when either fails in time. */
  static async open(url: string, options: PeerConnectionOptions): Promise<PeerConnection> {
    const socket = new WebSocket(url, {
      perMessageDeflate: false,
      maxPayload: MAX_MESSAGE_BYTES,
      handshakeTimeout: options.timeoutMs,
    });
    const connection = new PeerConnection(socket, options);
    try {
      await connection.opened();
      await connection.hello();
    } catch (error) {
      connection.close(`connect failed: ${(error as Error).message}`);
      throw error instanceof PeerResponseError
        ? error
        : new PeerResponseError(options.address, `cannot connect to ${options.address}`, {
            kind: 'refused',
            cause: error,
          });
    }
    return connection;
  }

  get isOpen(): boolean {
    return this.closeReason === undefined && this.socket.readyState === WebSocket.OPEN;
  }

  get address(): string {
    return this.options.address;
  }

  /** Sends a request on `path` (a route id) and resolves with the reply's payload. */
  request(
    path: string,
    payload: Buffer,
    { timeoutMs = this.options.timeoutMs, maxReplyBytes = MAX_MESSAGE_BYTES } = {},
  ): Promise<Buffer> {
    if (!this.isOpen) {
      return Promise.reject(
        new PeerResponseError(this.address, `${path} to ${this.address}: not connected`, {
          kind: 'disconnected',
        }),
      );
    }
    const id = this.takeId();
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new PeerResponseError(this.address, `${path} to ${this.address} timed out`, {
            kind: 'timeout',
          }),
        );
      }, timeoutMs);
      this.pending.set(id, { path, maxReplyBytes, resolve, reject, timer });
      this.socket.send(encodeFrame({ type: 'request', id, path, payload }), (error) => {
        if (error) this.fail(id, `${path}: ${error.message}`);
      });
    });
  }

  /** Closes the connection; requests in flight fail with `reason`. Harmless when closed. */
  close(reason = 'closed by us'): void {
    if (this.closeReason !== undefined) return;
    this.closeReason = reason;
    clearTimeout(this.watchdog);
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(
        new PeerResponseError(this.address, `${entry.path} to ${this.address}: ${reason}`, {
          kind: 'disconnected',
        }),
      );
      this.pending.delete(id);
    }
    this.socket.removeAllListeners('message');
    this.socket.on('error', () => undefined);
    if (this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
    else this.socket.close();
    this.options.onClose?.(reason);
  }

  private opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => {
        this.socket.on('message', (data, isBinary) => this.receive(data, isBinary));
        this.socket.on('close', () => this.close('the peer closed the connection'));
        // WS control frames are not part of the dialect: ARK drops a connection that sends them.
        this.socket.on('ping', () => this.misbehaved('sent a websocket ping'));
        this.socket.on('pong', () => this.misbehaved('sent a websocket pong'));
        resolve();
      });
      this.socket.once('error', reject);
      this.socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`HTTP ${response.statusCode} instead of a websocket`)),
      );
    });
  }

  private async hello(): Promise<void> {
    const id = this.takeId();
    const reply = new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new PeerResponseError(this.address, `hello to ${this.address} timed out`, {
            kind: 'timeout',
          }),
        );
      }, this.options.timeoutMs);
      this.pending.set(id, { path: 'hello', maxReplyBytes: 1024, resolve, reject, timer });
    });
    this.socket.send(encodeFrame({ type: 'hello', id, version: HELLO_VERSION }));
    await reply;
    this.beat();
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (!isBinary || !Buffer.isBuffer(data)) return this.misbehaved('sent a text message');
    let frame: Frame;
    try {
      frame = decodeFrame(data);
    } catch (error) {
      return this.misbehaved((error as WireError).message);
    }
    this.beat();
    if (frame.type === 'ping') return this.answerPing();
    const entry = this.pending.get(frame.id);
    if (!entry || (frame.type !== 'request' && frame.type !== 'hello')) {
      return this.misbehaved(`sent an unexpected ${frame.type} frame (id ${frame.id})`);
    }
    this.pending.delete(frame.id);
    clearTimeout(entry.timer);
    if (frame.type === 'hello') {
      const { interval, timeout } = frame.heartbeat;
      if (interval + timeout > 0) this.silenceMs = interval + timeout;
    }
    if (frame.statusCode >= 400) {
      const message = frame.payload.subarray(0, 512).toString('utf8');
      entry.reject(
        new PeerResponseError(
          this.address,
          `${entry.path} to ${this.address}: ${frame.statusCode} ${message}`,
          { kind: 'status', statusCode: frame.statusCode },
        ),
      );
      return;
    }
    if (frame.payload.byteLength > entry.maxReplyBytes) {
      entry.reject(
        new MalformedAnswerError(
          this.address,
          `${entry.path} from ${this.address}: reply of ${frame.payload.byteLength} bytes exceeds ${entry.maxReplyBytes}`,
        ),
      );
      return;
    }
    // The frame shares ws's buffer; replies are small or consumed at once, so no copy is made.
    entry.resolve(frame.payload);
  }

  private answerPing(): void {
    const now = Date.now();
    if (now - this.lastPing < MIN_PING_INTERVAL_MS) return this.misbehaved('pinged too often');
    this.lastPing = now;
    this.socket.send(encodeFrame({ type: 'ping', id: this.takeId() }), () => undefined);
  }

  /** The server broke the protocol: every request in flight fails as a malformed answer. */
  private misbehaved(what: string): void {
    const reason = `${this.address} ${what}`;
    for (const entry of this.pending.values()) {
      clearTimeout(entry.timer);
      entry.reject(new MalformedAnswerError(this.address, reason));
    }
    this.pending.clear();
    this.close(reason);
  }

  private fail(id: number, reason: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.reject(new PeerResponseError(this.address, reason, { kind: 'disconnected' }));
  }

  private beat(): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.close('no heartbeat from the peer'), this.silenceMs);
    this.watchdog.unref();
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId = id >= 0xffff_ffff ? 1 : id + 1;
    return id;
  }
}
