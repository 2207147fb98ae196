import type { SlotClock } from '@lni/crypto';
import type { Milestones } from '@lni/crypto';
import type { StatusSection } from '@lni/kernel';
import { delegateStatuses } from '../commands/forger-status.js';
import type { ForgerService } from '../forging/forger-service.js';
import type { RelayClient } from '../relay/relay-client.js';

/** How many delegates the summary names. */
const NAMED = 3;

export interface ForgingSectionDependencies {
  /** The slot loop, once booted; undefined before. */
  readonly forger: () => ForgerService | undefined;
  readonly relays: () => readonly RelayClient[];
  readonly timing: () => { readonly clock: SlotClock; readonly milestones: Milestones } | undefined;
}

/**
 * `forging` of `kernel status`: how many delegates this process forges for, and which of them
 * forges next and when, from the relay's current round (as `forger:status` reads it).
 */
export function forgingSection(deps: ForgingSectionDependencies): StatusSection {
  return {
    name: 'forging',
    read: async () => {
      const forger = deps.forger();
      const timing = deps.timing();
      const relay = deps.relays()[0];
      if (!forger || !timing || !relay) return { delegates: 0, names: [], next: null };
      const round = await relay.roundReply();
      const statuses = delegateStatuses({
        publicKeys: forger.delegatePublicKeys,
        marks: new Map(),
        round,
        blockTime: timing.milestones.at(round.lastBlock.height).blocktime,
        toDate: (epochSeconds) => new Date(timing.clock.unixMs(epochSeconds)),
      });
      const next = statuses
        .filter((status) => status.nextSlot !== undefined)
        .sort((a, b) => (a.nextSlot?.slot ?? 0) - (b.nextSlot?.slot ?? 0))[0];
      return {
        delegates: statuses.length,
        names: statuses.slice(0, NAMED).map((status) => forger.nameOf(status.publicKey)),
        next: next?.nextSlot
          ? {
              delegate: forger.nameOf(next.publicKey),
              slot: next.nextSlot.slot,
              at: next.nextSlot.at.toISOString(),
            }
          : null,
      };
    },
  };
}
