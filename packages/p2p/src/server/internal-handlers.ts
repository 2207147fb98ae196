import type { EventBus, Logger } from '@lni/kernel';
import type { ForgingSource } from '@lni/state/contracts';
import { RouteError } from '../transport/route-error.js';
import { currentRoundToWire, type CurrentRoundReply } from '../wire/current-round.js';
import {
  emitEventRequestSchema,
  type NetworkStateReply,
  type UnconfirmedTransactionsReply,
} from '../wire/internal-messages.js';
import { GRACEFUL_ERROR_STATUS, type InternalRoute } from '../wire/routes.js';

export interface InternalHandlersDeps {
  /** The ledger's forging data (`forgingSource`), resolved when a forger asks; undefined if none. */
  readonly forging: () => ForgingSource | undefined;
  readonly networkState: () => Promise<NetworkStateReply>;
  /** A forger asks the relay to check its peers for new blocks now. */
  readonly wakeSync: () => void;
  readonly events: EventBus;
  readonly logger: Logger;
}

/**
 * The forger ↔ relay routes in ARK Core 3.x's JSON shapes: an ARK forger forges through us as
 * it does through an ARK relay, and our forger reads the same shapes from either.
 */
export class InternalHandlers {
  constructor(private readonly deps: InternalHandlersDeps) {}

  async handle(route: InternalRoute, request: unknown): Promise<unknown> {
    switch (route) {
      case 'getCurrentRound':
        return this.currentRound();
      case 'getNetworkState':
        return this.deps.networkState();
      case 'getUnconfirmedTransactions':
        return this.unconfirmedTransactions();
      case 'syncBlockchain':
        this.deps.wakeSync();
        return true;
      case 'emitEvent':
        return this.emitEvent(request);
    }
  }

  private async currentRound(): Promise<CurrentRoundReply> {
    return currentRoundToWire(await this.forgingPort().currentRound());
  }

  private async unconfirmedTransactions(): Promise<UnconfirmedTransactionsReply> {
    const port = this.forgingPort();
    const transactions = [...(await port.transactionsForForging())];
    return { poolSize: port.poolSize(), transactions };
  }

  private emitEvent(request: unknown): boolean {
    const { error, value } = emitEventRequestSchema.validate(request);
    if (error) throw new RouteError(400, `emitEvent: ${error.message}`);
    this.deps.logger.debug({ event: value.event }, 'Forger event');
    this.deps.events.emit('forger.event', { event: value.event, body: value.body });
    return true;
  }

  private forgingPort(): ForgingSource {
    const port = this.deps.forging();
    // ARK answers 499 while its blockchain is not ready: a forger waits and asks again.
    if (!port)
      throw new RouteError(GRACEFUL_ERROR_STATUS, 'App is not ready: no ledger to forge on');
    return port;
  }
}
