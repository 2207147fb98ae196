import type { Logger } from '@lni/kernel';
import type { KeyPair } from '@lni/crypto';
import type { DelegateDirectory } from '@lni/state/contracts';
import type { DoubleSignGuard } from '../guard/double-sign-guard.js';
import { RelayError } from '../relay/relay-error.js';
import type { BlockAssembler } from './block-assembler.js';
import { decideForging, type ForgingRules } from './forging-decision.js';
import type { RelayPort, RelayRound } from './relay-port.js';

const RETRY_MS = 1_000;
/** How often a relay that keeps not answering is warned about. */
const UNANSWERED_WARNING_MS = 30_000;
const MIN_WAIT_MS = 100;

export interface ForgerServiceDeps {
  readonly relays: readonly RelayPort[];
  readonly delegates: readonly KeyPair[];
  readonly rules: ForgingRules;
  readonly assemble: BlockAssembler;
  /** The ledger's delegates, when it runs in this process: secrets of no delegate are warned of. */
  readonly registry?: DelegateDirectory;
  /** Keeps the forger from signing twice (see `src/guard/`); the plugin always gives one. */
  readonly guard?: DoubleSignGuard;
  /**
   * The level of `Forged block`: with the ledger in this process (core mode) its `Block
   * applied` line names the block and its forger already, so each block is one line at info.
   */
  readonly forgedLogLevel?: 'info' | 'debug';
  readonly logger: Logger;
  readonly now?: () => number;
}

/** How many delegates a log line names before it says "and N more". */
const NAMED_IN_LOG = 3;

/** Follows the slots through a relay and forges in the slots of the delegates it holds. */
export class ForgerService {
  private readonly keysByPublicKey: ReadonlyMap<string, KeyPair>;
  private readonly publicKeys: ReadonlySet<string>;
  /** Usernames the relays named for our delegates' slots (a forger process has no ledger). */
  private readonly usernames = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** The last slot acted on, so a slot is forged at most once. */
  private lastSlotHandled = -1;
  /** Relays that failed their last request, with when that was last logged as a warning. */
  private readonly unanswering = new Map<string, number>();
  /** Remedies already named: a warning every slot says it once, not every slot. */
  private readonly remediesGiven = new Set<string>();

  constructor(private readonly deps: ForgerServiceDeps) {
    this.keysByPublicKey = new Map(
      deps.delegates.map((keys) => [keys.publicKey.toString('hex'), keys]),
    );
    this.publicKeys = new Set(this.keysByPublicKey.keys());
  }

  /** The public keys (hex) of the delegates it forges for. */
  get delegatePublicKeys(): readonly string[] {
    return [...this.publicKeys];
  }

  start(): void {
    this.stopped = false;
    const { logger, registry, relays } = this.deps;
    const publicKeys = [...this.keysByPublicKey.keys()];
    const name = (publicKey: string) =>
      registry?.delegate(publicKey)?.username ?? `${publicKey.slice(0, 10)}…`;
    logger.info(
      {
        delegates: publicKeys.length,
        names: listBriefly(publicKeys.map(name)),
        relays: relays.map((relay) => relay.name),
      },
      'Forger started',
    );
    if (registry) this.warnAboutNonDelegates(registry, publicKeys);
    this.schedule(0);
  }

  /** Secrets that cannot forge: no delegate registered with them, or one that resigned. */
  private warnAboutNonDelegates(registry: DelegateDirectory, publicKeys: readonly string[]): void {
    const unknown = publicKeys.filter((publicKey) => registry.delegate(publicKey) === undefined);
    const resigned = publicKeys.filter((publicKey) => registry.delegate(publicKey)?.resigned);
    const height = registry.height();
    if (unknown.length > 0) {
      this.deps.logger.warn(
        { secrets: unknown.length, publicKeys: listBriefly(unknown), height },
        'Secrets in delegates.json belong to no delegate registered up to this height: they forge nothing',
      );
    }
    if (resigned.length > 0) {
      this.deps.logger.warn(
        {
          secrets: resigned.length,
          names: listBriefly(resigned.map((key) => registry.delegate(key)?.username ?? key)),
        },
        'Secrets in delegates.json belong to resigned delegates: they forge nothing',
      );
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.checkSlot().then((next) => this.schedule(next));
    }, ms);
  }

  /** One look at the current slot; resolves with the milliseconds until the next look. */
  async checkSlot(): Promise<number> {
    const answer = await this.firstAnswering((relay) => relay.currentRound());
    if (!answer) return RETRY_MS;
    const { relay, value: round } = answer;
    if (round.currentForgerUsername) {
      this.usernames.set(round.currentForger, round.currentForgerUsername);
    }
    this.deps.guard?.observe(round, this.publicKeys, (publicKey) => this.nameOf(publicKey));
    const wait = Math.max(MIN_WAIT_MS, round.msUntilNextSlot);
    const keys = this.keysByPublicKey.get(round.currentForger);
    if (keys === undefined || round.slotTimestamp === this.lastSlotHandled) return wait;
    if (!round.canForge) return MIN_WAIT_MS;
    this.lastSlotHandled = round.slotTimestamp;
    await this.forgeSlot(relay, round, keys);
    return wait;
  }

  private async forgeSlot(relay: RelayPort, round: RelayRound, keys: KeyPair): Promise<void> {
    const height = round.lastBlock.height + 1;
    const slot = round.slotTimestamp;
    const delegate = this.nameOf(round.currentForger);
    const { logger, guard } = this.deps;
    try {
      const network = await relay.networkState();
      const verdict = guard?.permit(round.currentForger, delegate, { height, slot }, network);
      if (verdict && !verdict.sign) {
        if (!verdict.reported) {
          logger.warn({ delegate, height, slot, reason: verdict.reason }, 'Missed slot');
        }
        return;
      }
      const decision = decideForging(round, network, this.deps.rules);
      if (!decision.forge) {
        const remedy = this.firstTime(decision.remedy);
        logger.warn({ delegate, height, slot, reason: decision.reason, ...remedy }, 'Missed slot');
        return;
      }
      const block = this.deps.assemble({
        keys,
        previousBlock: round.lastBlock,
        timestamp: round.slotTimestamp,
        reward: round.reward,
        transactions: await relay.transactionsForBlock(),
      });
      // On disk before the block leaves: after a crash the forger knows it may have signed it.
      guard?.signed(round.currentForger, { height: block.height, slot, id: block.id });
      await this.postEverywhere(block.serialized);
      logger[this.deps.forgedLogLevel ?? 'info'](
        { height: block.height, id: block.id, transactions: block.numberOfTransactions, delegate },
        'Forged block',
      );
    } catch (error) {
      logger.error({ height, slot, delegate, err: error }, 'Missed slot: forging failed');
    }
  }

  /** A delegate's username (the ledger's, else the relay's), its public key when none is known. */
  nameOf(publicKey: string): string {
    return (
      this.deps.registry?.delegate(publicKey)?.username ||
      this.usernames.get(publicKey) ||
      publicKey
    );
  }

  private firstTime(remedy: string | undefined): { remedy?: string } {
    if (remedy === undefined || this.remediesGiven.has(remedy)) return {};
    this.remediesGiven.add(remedy);
    return { remedy };
  }

  /** Every relay gets the block; forging succeeded if at least one accepted it. */
  private async postEverywhere(block: Buffer): Promise<void> {
    const results = await Promise.allSettled(
      this.deps.relays.map((relay) => relay.postBlock(block)),
    );
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        this.deps.logger.warn(
          { relay: this.deps.relays[index]?.name, err: result.reason },
          'Relay refused the block',
        );
      }
    });
    if (!results.some((result) => result.status === 'fulfilled')) {
      throw new Error('no relay accepted the block');
    }
  }

  private async firstAnswering<T>(
    ask: (relay: RelayPort) => Promise<T>,
  ): Promise<{ relay: RelayPort; value: T } | undefined> {
    const { logger } = this.deps;
    for (const relay of this.deps.relays) {
      try {
        const value = await ask(relay);
        if (this.unanswering.delete(relay.name)) {
          logger.info({ relay: relay.name }, 'Relay is back');
        }
        return { relay, value };
      } catch (error) {
        // Retried every second: a warning at a steady rate while it lasts, debug in between.
        const now = this.deps.now?.() ?? Date.now();
        const warned = this.unanswering.get(relay.name);
        const warn = warned === undefined || now - warned >= UNANSWERED_WARNING_MS;
        if (warn) this.unanswering.set(relay.name, now);
        // A relay's failure is said once, with the system's code; anything else keeps its stack.
        const cause =
          error instanceof RelayError
            ? { reason: error.message, ...(error.systemCode && { code: error.systemCode }) }
            : { err: error };
        logger[warn ? 'warn' : 'debug']({ relay: relay.name, ...cause }, 'Relay did not answer');
      }
    }
    return undefined;
  }
}

/** `a, b, c and 48 more`: a list a log line can hold. */
function listBriefly(items: readonly string[]): string {
  const named = items.slice(0, NAMED_IN_LOG).join(', ');
  const more = items.length - NAMED_IN_LOG;
  return more > 0 ? `${named} and ${more} more` : named;
}
