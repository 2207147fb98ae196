import type { EntityManager } from '@lni/database/contracts';
import type { FullBlock } from '../../blocks/block-store.js';
import type { SupplyCounter } from '../../blocks/supply-counter.js';
import type { MissedSlot } from '../../contracts/storage.js';
import type { MissedSlotTracker } from '../../production/missed-slots.js';
import type { RoundKeeper } from '../../rounds/round-keeper.js';
import type { Wallet } from '../wallet.js';
import type { WalletRepository } from '../wallet-repository.js';
import { walletOfRow } from '../wallet-row.js';
import type { StateHash } from './state-hash.js';
import { readStateHead } from './wallet-table-writer.js';
import { PhaseClock } from '../../boot/phase-clock.js';

/** Why the table cannot stand for the chain; the node rebuilds from the chain instead. */
export class WalletTableUnusable extends Error {}

export interface WalletTableLoaderDeps {
  readonly manager: Pick<EntityManager, 'query'>;
  readonly wallets: WalletRepository;
  readonly stateHash: StateHash;
  readonly supplyCounter: Pick<SupplyCounter, 'restore'>;
  readonly roundKeeper: Pick<RoundKeeper, 'restore' | 'latestRoundAt'>;
  readonly missedSlots: Pick<MissedSlotTracker, 'restore'>;
}

/** What a load took: the wallets, and milliseconds by phase (for the boot's log line). */
export interface WalletTableLoad {
  readonly wallets: number;
  readonly phases: Readonly<Record<string, number>>;
}

type RoundRow = { round: string; public_key: string; balance: string };
type MissedSlotRow = Record<'slot' | 'height' | 'round' | 'timestamp' | 'public_key', string>;

interface WalletRecord {
  address: string;
  public_key: string | null;
  balance: string;
  nonce: string;
  attributes: Record<string, unknown>;
}

/**
 * Boot without a replay: reads the wallets table, the rounds, the missed slots and the block
 * timestamps, checks that they stand for the stored chain (the head names the last block, the
 * state hash and the supply agree, every round is stored, the missed slots agree with the
 * delegates' counts), and only then puts them in the ledger: a failed check changes nothing
 * and throws WalletTableUnusable naming it.
 */
export class WalletTableLoader {
  readonly #deps: WalletTableLoaderDeps;

  constructor(deps: WalletTableLoaderDeps) {
    this.#deps = deps;
  }

  async load(last: FullBlock): Promise<WalletTableLoad> {
    const { manager, wallets, stateHash } = this.#deps;
    const phases = new PhaseClock();
    if (wallets.size > 0) throw new WalletTableUnusable('the wallet repository is not empty');
    // Every read at once, each on its own connection (nothing writes while the node boots); the
    // head is checked before the rest is used.
    const [head, loaded, chainSupply, roundRows, missedRows, timestamps] = await Promise.all([
      readStateHead(manager),
      manager.query(
        `SELECT address, public_key, balance::text AS balance, nonce::text AS nonce, attributes
         FROM wallets`,
      ) as Promise<WalletRecord[]>,
      this.#chainSupply(),
      this.#roundRows(this.#deps.roundKeeper.latestRoundAt(last.height)),
      manager.query(
        'SELECT slot, height, round, timestamp, public_key FROM missed_slots',
      ) as Promise<MissedSlotRow[]>,
      manager.query('SELECT height, timestamp FROM blocks') as Promise<
        { height: string; timestamp: string }[]
      >,
    ]);
    phases.end('read');
    if (!head) throw new WalletTableUnusable('no head row (a table never filled)');
    if (head.height !== last.height || head.blockId !== last.id) {
      throw new WalletTableUnusable(
        `head at height ${head.height} (${head.blockId}), last block at ${last.height} (${last.id})`,
      );
    }
    if (loaded.length !== head.walletCount) {
      throw new WalletTableUnusable(
        `${loaded.length} wallets, the head counts ${head.walletCount}`,
      );
    }
    const all = refusedAsUnusable('a row does not read as a wallet', () => loaded.map(walletOfRow));
    phases.end('parse');
    const { supply, genesisAmount } = chainSupply;
    if (supply !== head.supply) {
      throw new WalletTableUnusable(`supply ${head.supply} differs from the chain's ${supply}`);
    }
    // The genesis transactions' sender is left owing what it handed out (ARK's negative
    // genesis wallet), so the wallets together hold the supply less the genesis amount.
    const held = heldCoins(all);
    if (held !== supply - genesisAmount) {
      throw new WalletTableUnusable(
        `wallets hold ${held}, the supply less the genesis amount is ${supply - genesisAmount}`,
      );
    }
    stateHash.reset(all);
    if (stateHash.hex !== head.stateHash) throw new WalletTableUnusable('state hash differs');
    phases.end('hash');
    const rounds = roundsOf(roundRows, this.#deps.roundKeeper.latestRoundAt(last.height));
    const missed = missedSlotsOf(missedRows, all);
    // The repository checks every wallet before it adds any: a refusal leaves it empty. Its
    // sorted indexes are built after boot (or on first use), not on the way to answering.
    refusedAsUnusable('the repository refused the wallets', () =>
      wallets.load(all, { indexes: 'later' }),
    );
    this.#deps.supplyCounter.restore(supply);
    this.#deps.roundKeeper.restore(
      rounds,
      timestamps.map((row) => [Number(row.height), Number(row.timestamp)] as const),
    );
    this.#deps.missedSlots.restore(missed);
    phases.end('restore');
    return { wallets: all.length, phases: phases.durations };
  }

  /** What the supply counter counts: the genesis block's amount and every reward since. */
  async #chainSupply(): Promise<{ supply: bigint; genesisAmount: bigint }> {
    const rows = (await this.#deps.manager.query(
      `SELECT COALESCE(SUM(reward), 0)::text AS rewards,
         COALESCE((SELECT total_amount FROM blocks WHERE height = 1), 0)::text AS genesis
       FROM blocks`,
    )) as { rewards: string; genesis: string }[];
    const genesisAmount = BigInt(rows[0]?.genesis ?? '0');
    return { supply: BigInt(rows[0]?.rewards ?? '0') + genesisAmount, genesisAmount };
  }

  async #roundRows(latest: number): Promise<RoundRow[]> {
    return (await this.#deps.manager.query(
      `SELECT round, public_key, balance::text AS balance FROM rounds WHERE round <= $1
       ORDER BY round`,
      [latest],
    )) as RoundRow[];
  }
}

/** Every round from 1 to `latest`, each's delegates in vote order; a gap is refused. */
function roundsOf(rows: readonly RoundRow[], latest: number) {
  const rounds = new Map<number, { byVotes: string[]; votes: Map<string, bigint> }>();
  for (const row of rows) {
    const round = Number(row.round);
    let entry = rounds.get(round);
    if (!entry) rounds.set(round, (entry = { byVotes: [], votes: new Map() }));
    entry.byVotes.push(row.public_key);
    entry.votes.set(row.public_key, BigInt(row.balance));
  }
  if (rounds.size !== latest) {
    throw new WalletTableUnusable(`${rounds.size} rounds stored of ${latest}`);
  }
  // Sorted here, as compareByVotes does, whatever the database's collation.
  for (const { byVotes, votes } of rounds.values()) {
    byVotes.sort((a, b) => {
      const difference = (votes.get(b) ?? 0n) - (votes.get(a) ?? 0n);
      if (difference !== 0n) return difference > 0n ? 1 : -1;
      return a < b ? -1 : a > b ? 1 : 0;
    });
  }
  // Votes in vote order too, as an election records them.
  return [...rounds].map(([round, { byVotes, votes }]) => ({
    round,
    byVotes,
    votes: new Map(byVotes.map((key) => [key, votes.get(key) ?? 0n])),
  }));
}

/** The stored missed slots, which must add up to the delegates' `missedBlocks`. */
function missedSlotsOf(rows: readonly MissedSlotRow[], all: readonly Wallet[]): MissedSlot[] {
  const counted = all.reduce((sum, w) => sum + (w.attributes.delegate?.missedBlocks ?? 0), 0);
  if (counted !== rows.length) {
    throw new WalletTableUnusable(
      `${rows.length} missed slots stored, the delegates count ${counted}`,
    );
  }
  return rows.map((row) => ({
    slot: Number(row.slot),
    height: Number(row.height),
    round: Number(row.round),
    timestamp: Number(row.timestamp),
    publicKey: row.public_key,
  }));
}

/** Runs `read`; what it throws is a reason not to use the table, not a failed boot. */
function refusedAsUnusable<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new WalletTableUnusable(`${what}: ${(error as Error).message}`);
  }
}

/** Coins in wallets: balances and the amounts locked in HTLCs (taken from their senders). */
function heldCoins(all: readonly Wallet[]): bigint {
  let sum = 0n;
  for (const wallet of all) sum += wallet.balance + (wallet.attributes.htlc?.lockedBalance ?? 0n);
  return sum;
}
