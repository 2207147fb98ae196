import type { Wallet } from '@lni/state';
import { walletOfRow, type WalletRow } from '@lni/state/wallet-row';

/** A wallet's row as the searches select it: amounts and attributes as the text of their columns. */
export interface WalletTextRow {
  readonly address: string;
  /** The row version: see ROW_VERSION. */
  readonly version: string;
  readonly public_key: string | null;
  readonly balance_text: string;
  readonly nonce_text: string;
  readonly attributes_text: string;
}

/**
 * A version of a wallet's row, as SQL: the writing transaction's id (`xmin`, the same on a hot
 * standby, which replays the primary's pages; freezing keeps it) and the height of the block
 * that wrote it. Each committed block is one transaction, so two contents of a row never share
 * a version: a revert and a new block at the same height are two transactions. The height
 * guards against the id wrapping around after 2^32 transactions.
 */
export const ROW_VERSION = `xmin::text || '/' || updated_height AS version`;

/** The columns of a WalletTextRow, as a select list of the `wallets` table. */
export const WALLET_TEXT_COLUMNS =
  `address, ${ROW_VERSION}, public_key, balance::text AS balance_text, ` +
  'nonce::text AS nonce_text, attributes::text AS attributes_text';

interface Kept {
  readonly version: string;
  readonly view: Wallet;
  /** Read since it was kept or last passed over by an eviction (its second chance). */
  read: boolean;
}

/** Wallets kept by default: a few hundred bytes to 2 KB each, so about 40 MB at most. */
const KEPT_WALLETS = 20_000;

/**
 * One frozen wallet object per address for as long as its row keeps its version, as the
 * in-memory ledger keeps one object per wallet between its changes. A page asks first for the
 * versions of its rows alone and reads in full only the rows it does not hold at that version
 * (the text of the attributes is most of what PostgreSQL sends for a page); the API's JSON kept
 * per wallet object (`JsonBytesMemo`) then serves the wallet instead of building it again.
 * Bounded, by the clock rule: a wallet read since it was kept survives one eviction pass, so the
 * wallets pages keep asking for stay. A read only marks its wallet: moving it to the end of the
 * map at every read, as a strict least-recently-read order would, cost two thirds of a page of
 * 100's lookups (50 of 73 µs).
 */
export class WalletViews {
  readonly #kept = new Map<string, Kept>();
  readonly #max: number;

  constructor(maxWallets = KEPT_WALLETS) {
    this.#max = maxWallets;
  }

  /** The wallet kept for the address at that version of its row, if any. */
  keptAt(address: string, version: string): Wallet | undefined {
    const kept = this.#kept.get(address);
    if (kept === undefined || kept.version !== version) return undefined;
    kept.read = true;
    return kept.view;
  }

  viewOf(row: WalletTextRow): Wallet {
    const kept = this.keptAt(row.address, row.version);
    if (kept !== undefined) return kept;
    const view = Object.freeze(
      walletOfRow({
        address: row.address,
        public_key: row.public_key,
        balance: row.balance_text,
        nonce: row.nonce_text,
        attributes: JSON.parse(row.attributes_text) as WalletRow['attributes'],
      }),
    );
    this.#kept.delete(row.address);
    // Room made first, so that the wallet just read is never the one dropped.
    if (this.#kept.size >= this.#max) this.#evictOne();
    this.#kept.set(row.address, { version: row.version, view, read: false });
    return view;
  }

  /** Drops the oldest wallet not read since it was kept or passed over; the read ones move on. */
  #evictOne(): void {
    for (const [address, kept] of this.#kept) {
      this.#kept.delete(address);
      if (!kept.read) return;
      kept.read = false;
      this.#kept.set(address, kept);
    }
  }
}
