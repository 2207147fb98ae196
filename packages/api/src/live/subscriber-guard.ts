import Boom from '@hapi/boom';
import type { Nes } from '@hapi/nes';
import type { Logger } from '@lni/kernel';
import type { ClientAddress } from '../clients/client-address.js';
import type { ApiOptions } from '../config.js';
import { backlogBytes, closeWith, terminate } from './nes-socket.js';

/** The API's per-IP request limit: resolves, or throws its 429. */
export interface RequestGate {
  admit(ip: string): Promise<void>;
}

export interface SubscriberGuardDeps {
  readonly limits: ApiOptions['subscriptions'];
  /** IPs never limited, as for requests. */
  readonly whitelist: { has(ip: string): boolean };
  /** Who a socket's client is, behind trusted proxies. */
  readonly clientAddress: ClientAddress;
  readonly requests: RequestGate;
  readonly logger: Logger;
}

/** Websocket close code: try again later. */
const TRY_LATER = 1013;

/**
 * Keeps subscribers within the API's limits: connections per IP, subscriptions per connection,
 * each connection and subscription counted as a request of the per-IP rate limit, and a
 * subscriber that does not read what it is sent dropped before its backlog grows past
 * `maxBacklogKilobytes`.
 */
export class SubscriberGuard {
  readonly #perIp = new Map<string, number>();
  readonly #subscriptions = new WeakMap<Nes.Socket, number>();
  readonly #counted = new WeakSet<Nes.Socket>();

  constructor(private readonly deps: SubscriberGuardDeps) {}

  /** A new connection: counted against its IP, or closed saying why. */
  connected(socket: Nes.Socket): void {
    const ip = this.deps.clientAddress.ofSocket(socket);
    if (this.deps.whitelist.has(ip)) return;
    const open = this.#perIp.get(ip) ?? 0;
    const { maxConnectionsPerIp } = this.deps.limits;
    if (open >= maxConnectionsPerIp) {
      this.deps.logger.debug({ ip, open }, 'Subscriber refused: too many connections');
      closeWith(
        socket,
        TRY_LATER,
        `${ip} has ${open} connections open (at most ${maxConnectionsPerIp})`,
      );
      return;
    }
    this.#perIp.set(ip, open + 1);
    this.#counted.add(socket);
    this.deps.requests.admit(ip).catch((error: unknown) => {
      closeWith(socket, TRY_LATER, (error as Error).message);
    });
  }

  disconnected(socket: Nes.Socket): void {
    if (!this.#counted.delete(socket)) return;
    const ip = this.deps.clientAddress.ofSocket(socket);
    const open = (this.#perIp.get(ip) ?? 1) - 1;
    if (open > 0) this.#perIp.set(ip, open);
    else this.#perIp.delete(ip);
  }

  /** Before a subscription is added: throws the 429 or 422 the client receives. */
  async subscribing(socket: Nes.Socket): Promise<void> {
    const ip = this.deps.clientAddress.ofSocket(socket);
    const held = this.#subscriptions.get(socket) ?? 0;
    const { maxSubscriptionsPerConnection } = this.deps.limits;
    if (held >= maxSubscriptionsPerConnection) {
      throw Boom.tooManyRequests(
        `a connection holds at most ${maxSubscriptionsPerConnection} subscriptions`,
      );
    }
    if (!this.deps.whitelist.has(ip)) await this.deps.requests.admit(ip);
    this.#subscriptions.set(socket, held + 1);
  }

  unsubscribed(socket: Nes.Socket): void {
    const held = this.#subscriptions.get(socket) ?? 0;
    if (held > 0) this.#subscriptions.set(socket, held - 1);
  }

  /**
   * Whether to send a subscriber the next message. One whose backlog is past the bound is
   * dropped instead: nes would queue for it without end.
   */
  keepsUp(socket: Nes.Socket): boolean {
    const backlog = backlogBytes(socket);
    if (backlog <= this.deps.limits.maxBacklogKilobytes * 1024) return true;
    if (socket.isOpen()) {
      this.deps.logger.info(
        { ip: this.deps.clientAddress.ofSocket(socket), backlogBytes: backlog },
        'Slow subscriber dropped',
      );
      terminate(socket);
    }
    return false;
  }
}
