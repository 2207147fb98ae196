import Nes from '@hapi/nes';
import type Joi from 'joi';
import { HandshakeError, MalformedAnswerError, PeerResponseError } from '../errors.js';
import { toHeaderRecord, type HandshakeHeaders } from '../protocol/handshake.js';
import { routeId, type MessageName } from '../protocol/message-names.js';

export interface PeerClientOptions {
  readonly ip: string;
  readonly port: number;
  /** What we say about ourselves when the connection opens. */
  readonly handshake: HandshakeHeaders;
  readonly timeoutMs: number;
  /** Called once when the connection closes for any reason after it was established. */
  readonly onClose?: () => void;
}

/** An outgoing nes connection to one peer; every answer is checked against its schema. */
export class PeerClient {
  private readonly client: Nes.Client;
  private closed = false;

  constructor(private readonly options: PeerClientOptions) {
    const host = options.ip.includes(':') ? `[${options.ip}]` : options.ip;
    this.client = new Nes.Client(`ws://${host}:${options.port}`, { timeout: options.timeoutMs });
    this.client.onError = () => undefined; // errors of requests reach their callers; the rest end in onDisconnect
    this.client.onDisconnect = () => this.markClosed();
  }

  get ip(): string {
    return this.options.ip;
  }

  get port(): number {
    return this.options.port;
  }

  get address(): string {
    return `${this.options.ip}:${this.options.port}`;
  }

  /** Opens the connection; a peer refusing our network or version rejects with HandshakeError. */
  async connect(): Promise<void> {
    try {
      await this.client.connect({
        auth: { headers: toHeaderRecord(this.options.handshake) },
        reconnect: false,
        timeout: this.options.timeoutMs,
      });
    } catch (error) {
      this.closed = true;
      const nesError = error as NesFailure;
      if (nesError.statusCode === 401 || nesError.statusCode === 403) {
        throw new HandshakeError(
          `peer ${this.address} refused the handshake: ${nesError.message}`,
          {
            cause: error,
          },
        );
      }
      throw new PeerResponseError(
        this.address,
        `cannot connect to ${this.address}: ${nesError.message}`,
        undefined,
        {
          cause: error,
        },
      );
    }
  }

  /** Sends a message and returns the answer once `schema` accepts it. */
  async request<T>(name: MessageName, payload: object, schema: Joi.Schema<T>): Promise<T> {
    let answer: unknown;
    try {
      const response = await this.client.request({ path: routeId(name), method: 'POST', payload });
      answer = response.payload;
    } catch (error) {
      const nesError = error as NesFailure;
      throw new PeerResponseError(
        this.address,
        `${name} to ${this.address} failed: ${nesError.message}`,
        nesError.statusCode,
        { cause: error },
      );
    }
    const { error, value } = schema.validate(answer, { convert: false });
    if (error) {
      throw new MalformedAnswerError(
        this.address,
        `${name} from ${this.address}: malformed answer: ${error.message}`,
      );
    }
    return value;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  async disconnect(): Promise<void> {
    this.closed = true;
    await this.client.disconnect();
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.options.onClose?.();
  }
}

/** The fields of a nes client error this class reads. */
interface NesFailure {
  readonly message?: string;
  readonly statusCode?: number;
}
