import type { SlotClock } from '@lni/crypto';
import type { Logger } from '@lni/kernel';
import {
  currentRoundFromWire,
  currentRoundReplySchema,
  networkStateReplySchema,
  PeerConnection,
  PeerResponseError,
  postBlockCodec,
  routeId,
  unconfirmedTransactionsReplySchema,
  type CurrentRoundReply,
  type InternalRoute,
} from '@lni/p2p/wire';
import type Joi from 'joi';
import type { NetworkState, RelayPort, RelayRound } from '../forging/relay-port.js';
import type { RelayAddress } from './relay-address.js';
import { RelayError } from './relay-error.js';

export interface RelayClientOptions {
  readonly address: RelayAddress;
  /** The network's clock: when the current slot ends follows from the epoch and block time. */
  readonly clock: SlotClock;
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly now?: () => number;
  /** Told each request's round trip (answered or failed), in seconds. */
  readonly observe?: (route: string, seconds: number) => void;
}

/**
 * A relay (LNI's or ARK Core 3.x's) over its internal P2P routes, in ARK's binary nes dialect
 * with JSON payloads; forged blocks go through the public postBlock route. A lost connection is
 * opened again by the next request, so a relay that restarts is used again as soon as it is back.
 */
export class RelayClient implements RelayPort {
  readonly name: string;
  private connection: PeerConnection | undefined;
  private connecting: Promise<PeerConnection> | undefined;
  private closed = false;

  constructor(private readonly options: RelayClientOptions) {
    const { host, port } = options.address;
    this.name = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  /** getCurrentRound's answer as the relay sent it, the round's delegates included. */
  roundReply(): Promise<CurrentRoundReply> {
    return this.internal('getCurrentRound', currentRoundReplySchema);
  }

  async currentRound(): Promise<RelayRound> {
    const reply = await this.roundReply();
    const round = currentRoundFromWire(reply);
    const { clock } = this.options;
    // ARK's forger: the slot ends one block time (at the relay's height) after its timestamp.
    const nextSlotMs = clock.unixMs(clock.slotEnd(round.slotTimestamp, round.lastBlock.height));
    const now = this.options.now?.() ?? Date.now();
    const { generatorPublicKey, timestamp } = reply.lastBlock;
    const username = reply.currentForger.delegate?.username;
    return {
      ...round,
      msUntilNextSlot: Math.max(0, nextSlotMs - now),
      lastBlock: {
        ...round.lastBlock,
        ...(typeof generatorPublicKey === 'string' && { generatorPublicKey }),
        ...(typeof timestamp === 'number' && { timestamp }),
      },
      ...(username && { currentForgerUsername: username }),
    };
  }

  networkState(): Promise<NetworkState> {
    return this.internal('getNetworkState', networkStateReplySchema);
  }

  async transactionsForBlock(): Promise<readonly string[]> {
    return (await this.internal('getUnconfirmedTransactions', unconfirmedTransactionsReplySchema))
      .transactions;
  }

  /** Posts a forged block as ARK's forger does: postBlock without headers. */
  async postBlock(block: Buffer): Promise<void> {
    const payload = await this.request(
      'postBlock',
      routeId('postBlock'),
      postBlockCodec.encodeRequest({ block, hops: 0 }),
    );
    let reply;
    try {
      reply = postBlockCodec.decodeReply(payload);
    } catch (error) {
      throw new RelayError(
        this.name,
        `postBlock from relay ${this.name}: ${(error as Error).message}`,
      );
    }
    if (!reply.status) {
      throw new RelayError(
        this.name,
        `${this.name} did not take the block${reply.reason ? `: ${reply.reason}` : ''}`,
      );
    }
  }

  disconnect(): void {
    this.closed = true;
    this.connection?.close('the forger is stopping');
    this.connection = undefined;
  }

  private async internal<T>(route: InternalRoute, schema: Joi.Schema<T>): Promise<T> {
    const payload = await this.request(route, routeId(route), Buffer.from('{}'));
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload.toString('utf8'));
    } catch {
      throw new RelayError(this.name, `${route} from relay ${this.name}: not JSON`);
    }
    const { error, value } = schema.validate(parsed);
    if (error)
      throw new RelayError(this.name, `${route} from relay ${this.name}: ${error.message}`);
    return value;
  }

  private async request(name: string, path: string, payload: Buffer): Promise<Buffer> {
    const started = performance.now();
    const connection = await this.connected();
    try {
      return await connection.request(path, payload, { timeoutMs: this.options.timeoutMs });
    } catch (error) {
      const failure = error as Error & { statusCode?: number };
      // ARK's relays refuse by closing the socket: 403 (not in remoteAccess) arrives as a drop.
      throw new RelayError(
        this.name,
        `${name} to relay ${this.name} failed: ${failure.message}`,
        error instanceof PeerResponseError ? error.statusCode : undefined,
        { cause: error },
      );
    } finally {
      this.options.observe?.(name, (performance.now() - started) / 1000);
    }
  }

  /** The open connection, opening one (once at a time) when there is none. */
  private connected(): Promise<PeerConnection> {
    if (this.closed) return Promise.reject(new RelayError(this.name, 'relay client is closed'));
    if (this.connection?.isOpen) return Promise.resolve(this.connection);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<PeerConnection> {
    const { logger, timeoutMs } = this.options;
    let connection: PeerConnection | undefined;
    try {
      connection = await PeerConnection.open(`ws://${this.name}`, {
        address: this.name,
        timeoutMs,
        onClose: (reason) => {
          if (connection === undefined || this.connection !== connection) return;
          this.connection = undefined;
          if (!this.closed) logger.warn({ relay: this.name, reason }, 'Relay connection lost');
        },
      });
    } catch (error) {
      // The transport's error says "cannot connect" too; the system's code is the news.
      const code = systemErrorCode(error);
      throw new RelayError(
        this.name,
        `cannot connect to relay ${this.name}${code ? ` (${code})` : ''}`,
        undefined,
        { cause: error, ...(code && { systemCode: code }) },
      );
    }
    if (this.closed) {
      connection.close('the forger is stopping');
      throw new RelayError(this.name, 'relay client is closed');
    }
    this.connection = connection;
    logger.info({ relay: this.name }, 'Connected to relay');
    return connection;
  }
}

/** The operating system's error code (ECONNREFUSED, ETIMEDOUT, …) somewhere in the causes. */
export function systemErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}
