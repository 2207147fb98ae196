import Nes from '@hapi/nes';
import type { Logger } from '@lni/kernel';
import {
  currentRoundResponseSchema,
  networkStateResponseSchema,
  postBlockResponseSchema,
  routeId,
  toHeaderRecord,
  transactionsForForgingResponseSchema,
  type MessageName,
} from '@lni/p2p/protocol';
import type Joi from 'joi';
import type { NetworkState, RelayPort, RoundInfo } from '../forging/relay-port.js';
import type { RelayAddress } from './relay-address.js';
import { RelayError } from './relay-error.js';

export interface NesRelayClientOptions {
  readonly address: RelayAddress;
  /** The network the forger forges on: the relay refuses another nethash at the handshake. */
  readonly nethash: string;
  /** The P2P protocol version the forger speaks (the relay refuses another major). */
  readonly version: string;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * A relay over its internal P2P endpoints, on a nes websocket opened with the handshake p2p
 * expects (nethash, version, role forger). A lost connection is opened again by the next request,
 * so a relay that restarts is used again as soon as it is back.
 */
export class NesRelayClient implements RelayPort {
  readonly name: string;
  private client: Nes.Client | undefined;
  private connecting: Promise<Nes.Client> | undefined;
  private closed = false;

  constructor(private readonly options: NesRelayClientOptions) {
    const { host, port } = options.address;
    this.name = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  async currentRound(): Promise<RoundInfo> {
    const round = await this.request('getCurrentRound', {}, currentRoundResponseSchema);
    return { ...round, reward: BigInt(round.reward) };
  }

  networkState(): Promise<NetworkState> {
    return this.request('getNetworkState', {}, networkStateResponseSchema);
  }

  async transactionsForBlock(): Promise<readonly string[]> {
    return this.request('getTransactionsForForging', {}, transactionsForForgingResponseSchema);
  }

  async postBlock(block: string): Promise<void> {
    const answer = await this.request('postBlock', { block }, postBlockResponseSchema);
    if (answer.status === 'rejected') {
      throw new RelayError(this.name, `${this.name} rejected the block: ${answer.reason ?? ''}`);
    }
  }

  async disconnect(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.disconnect();
  }

  private async request<T>(name: MessageName, payload: object, schema: Joi.Schema<T>): Promise<T> {
    const client = await this.connected();
    let answer: unknown;
    try {
      answer = (await client.request({ path: routeId(name), method: 'POST', payload })).payload;
    } catch (error) {
      const failure = error as { message?: string; statusCode?: number };
      throw new RelayError(
        this.name,
        `${name} to relay ${this.name} failed: ${failure.message ?? 'no answer'}`,
        failure.statusCode,
        { cause: error },
      );
    }
    const { error, value } = schema.validate(answer, { convert: false });
    if (error) {
      throw new RelayError(this.name, `${name} from relay ${this.name}: ${error.message}`);
    }
    return value;
  }

  /** The open connection, opening one (once at a time) when there is none. */
  private connected(): Promise<Nes.Client> {
    if (this.closed) return Promise.reject(new RelayError(this.name, 'relay client is closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Nes.Client> {
    const { address, nethash, version, timeoutMs, logger } = this.options;
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    const client = new Nes.Client(`ws://${host}:${address.port}`, { timeout: timeoutMs });
    client.onError = () => undefined; // request errors reach their callers; the rest end in onDisconnect
    client.onDisconnect = () => {
      if (this.client !== client) return;
      this.client = undefined;
      logger.warn({ relay: this.name }, 'Relay connection lost');
    };
    try {
      await client.connect({
        auth: { headers: toHeaderRecord({ nethash, version, port: 0, role: 'forger' }) },
        reconnect: false,
        timeout: timeoutMs,
      });
    } catch (error) {
      const failure = error as { message?: string; statusCode?: number };
      throw new RelayError(
        this.name,
        `cannot connect to relay ${this.name}: ${failure.message ?? 'no answer'}`,
        failure.statusCode,
        { cause: error },
      );
    }
    if (this.closed) {
      await client.disconnect();
      throw new RelayError(this.name, 'relay client is closed');
    }
    this.client = client;
    logger.info({ relay: this.name }, 'Connected to relay');
    return client;
  }
}
