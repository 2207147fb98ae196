import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import Nes, { type Nes as NesTypes } from '@hapi/nes';
import type { Logger } from '@lni/kernel';
import type { EventBus, EventMap, EventName } from '@lni/kernel';
import '@lni/state/contracts';
import type { LiveMessages } from './live-messages.js';
import type { SubscriberGuard } from './subscriber-guard.js';

export interface LiveFeedDeps {
  readonly events: EventBus;
  readonly messages: LiveMessages;
  readonly guard: SubscriberGuard;
  readonly logger: Logger;
  /** Whether a path parameter is an address of this network. */
  readonly isAddress: (value: string) => boolean;
}

/** How long a read of changed wallets may take (an api node reads them from its database). */
const WALLET_READ_BUDGET_MS = 5_000;

/** Every subscription path, as clients subscribe to it. */
export const LIVE_CHANNELS = [
  '/events/block.applied',
  '/events/block.reverted',
  '/events/transaction.applied',
  '/events/transaction.pool.added',
  '/events/transaction.pool.removed',
  '/events/round.applied',
  '/events/delegate.registered',
  '/events/delegate.resigned',
  '/events/forger.missing',
  '/wallets/{address}',
  '/wallets/{address}/transactions',
] as const;

/**
 * Live subscriptions over @hapi/nes on the API's own server and port. Each kernel event is
 * turned into its message only when someone subscribes to where it goes, so a node syncing with
 * no subscribers does no work here. Messages go to each socket on its own: nes' own
 * `server.publish` sends to a path's subscribers one after another, each waiting until the one
 * before has taken the message, so a single reader that stopped would hold up all the others.
 */
export class LiveFeed {
  /** The sockets subscribed to each concrete path (`/wallets/D…/transactions`). */
  readonly #subscribers = new Map<string, Set<NesTypes.Socket>>();
  readonly #offs: (() => void)[] = [];
  /** Subscribed wallets changed since the last read of them (see #publishChangedWallets). */
  readonly #changedWallets = new Set<string>();
  #server: Server | undefined;

  constructor(private readonly deps: LiveFeedDeps) {}

  /** Registers nes and the subscriptions on `server` (before it starts), then follows the bus. */
  async attach(server: Server): Promise<void> {
    const { guard } = this.deps;
    await server.register({
      plugin: Nes.plugin,
      options: {
        onConnection: (socket) => guard.connected(socket),
        onDisconnection: (socket) => guard.disconnected(socket),
      },
    });
    for (const path of LIVE_CHANNELS) {
      server.subscription(path, {
        onSubscribe: async (socket, concrete, params) => {
          const address = (params as { address?: string } | undefined)?.address;
          if (address !== undefined && !this.deps.isAddress(address)) {
            throw Boom.badData(`address: ${address} is not an address of this network`);
          }
          await guard.subscribing(socket);
          let sockets = this.#subscribers.get(concrete);
          if (!sockets) this.#subscribers.set(concrete, (sockets = new Set()));
          sockets.add(socket);
        },
        onUnsubscribe: (socket, concrete) => {
          const sockets = this.#subscribers.get(concrete);
          if (!sockets?.delete(socket)) return;
          guard.unsubscribed(socket);
          if (sockets.size === 0) this.#subscribers.delete(concrete);
        },
      });
    }
    this.#server = server;
    this.#follow();
  }

  /** Stops following the bus (the server closes the sockets when it stops). */
  detach(): void {
    for (const off of this.#offs.splice(0)) off();
    this.#server = undefined;
  }

  #follow(): void {
    const { messages } = this.deps;
    this.#on('block.applied', ({ block }) => {
      this.#publish('/events/block.applied', () => messages.block(block));
    });
    this.#on('block.reverted', ({ block }) => {
      this.#publish('/events/block.reverted', () => messages.block(block));
    });
    this.#on('transaction.applied', ({ transaction, block }) => {
      // A sync applies thousands per second: with no subscriber at all, not even the addresses.
      if (this.#subscribers.size === 0) return;
      let message: unknown;
      const build = () => (message ??= messages.confirmed(transaction, block));
      this.#publish('/events/transaction.applied', build);
      for (const address of messages.addressesOf(transaction)) {
        this.#publish(`/wallets/${address}/transactions`, build);
      }
    });
    this.#on('transaction.pool.added', ({ transaction }) => {
      this.#publish('/events/transaction.pool.added', () => messages.unconfirmed(transaction));
    });
    this.#on('transaction.pool.removed', ({ transaction, reason }) => {
      this.#publish('/events/transaction.pool.removed', () => ({
        id: transaction.id,
        reason,
        transaction: messages.unconfirmed(transaction),
      }));
    });
    this.#on('wallets.changed', ({ addresses }) => {
      const unscheduled = this.#changedWallets.size === 0;
      for (const address of addresses) {
        if (this.#subscribers.has(`/wallets/${address}`)) this.#changedWallets.add(address);
      }
      // The blocks applied (or read by an api node) in one turn are read together, once.
      if (unscheduled && this.#changedWallets.size > 0) {
        queueMicrotask(() => this.#publishChangedWallets());
      }
    });
    this.#on('round.applied', (round) => {
      this.#publish('/events/round.applied', () => messages.round(round));
    });
    for (const name of ['delegate.registered', 'delegate.resigned'] as const) {
      this.#on(name, (change) => {
        this.#publish(`/events/${name}`, () => messages.delegateChange(change));
      });
    }
    this.#on('forger.missing', (missed) => {
      this.#publish('/events/forger.missing', () => messages.missedSlot(missed));
    });
  }

  /** The subscribed wallets changed in this turn, read in one search and published. */
  #publishChangedWallets(): void {
    const addresses = [...this.#changedWallets];
    this.#changedWallets.clear();
    this.deps.messages.wallets(addresses, Date.now() + WALLET_READ_BUDGET_MS).then(
      (wallets) => {
        for (const wallet of wallets) this.#publish(`/wallets/${wallet.address}`, () => wallet);
      },
      (error: unknown) =>
        this.deps.logger.warn(
          { err: error, wallets: addresses.length },
          'Could not read the changed wallets',
        ),
    );
  }

  #on<K extends EventName>(event: K, listener: (payload: EventMap[K]) => void): void {
    this.#offs.push(this.deps.events.on(event, listener));
  }

  #publish(path: string, build: () => unknown): void {
    const sockets = this.#server && this.#subscribers.get(path);
    if (!sockets) return;
    let message: unknown;
    try {
      message = build();
    } catch (error) {
      this.deps.logger.warn({ err: error, path }, 'Live message not made');
      return;
    }
    for (const socket of [...sockets]) {
      if (!this.deps.guard.keepsUp(socket)) continue;
      // A socket closing meanwhile refuses the message; its unsubscription follows.
      socket.publish(path, message).catch(() => undefined);
    }
  }
}
