import type { Wallet } from '../wallet.js';
import { walletRowOf } from '../wallet-row.js';

/** One field of one wallet that differs: `table` and `replay` as JSON text (absent: undefined). */
export interface WalletDifference {
  readonly address: string;
  readonly field: string;
  readonly table: string | undefined;
  readonly replay: string | undefined;
}

/**
 * Every field of every wallet that differs between the table and a replay of the chain, by
 * dotted path (`balance`, `attributes.delegate.voteBalance`). What reverted blocks leave in a
 * running node's memory, and so in its table, but a replay never makes, is not a difference: a
 * wallet left empty, the public key of a wallet with nonce 0, `missedBlocks: 0`.
 */
export function compareWallets(
  table: ReadonlyMap<string, Wallet>,
  replay: ReadonlyMap<string, Wallet>,
): WalletDifference[] {
  const differences: WalletDifference[] = [];
  const addresses = new Set([...table.keys(), ...replay.keys()]);
  for (const address of [...addresses].sort()) {
    const left = fieldsOf(table.get(address));
    const right = fieldsOf(replay.get(address));
    for (const field of new Set([...left.keys(), ...right.keys()])) {
      const [a, b] = [left.get(field), right.get(field)];
      if (a !== b) differences.push({ address, field, table: a, replay: b });
    }
  }
  return differences;
}

/** The wallet's leaves by dotted path, as JSON text, without what only reverts leave. */
function fieldsOf(wallet: Wallet | undefined): Map<string, string> {
  const fields = new Map<string, string>();
  if (!wallet) return fields;
  const row = walletRowOf(wallet, 0);
  const flatten = (value: unknown, path: string) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) flatten(inner, `${path}.${key}`);
    } else if (value !== undefined) {
      fields.set(path, JSON.stringify(value));
    }
  };
  flatten(row.attributes, 'attributes');
  if (wallet.balance !== 0n) fields.set('balance', JSON.stringify(row.balance));
  if (wallet.nonce !== 0n) {
    fields.set('nonce', JSON.stringify(row.nonce));
    if (row.public_key !== null) fields.set('publicKey', JSON.stringify(row.public_key));
  }
  if (fields.get('attributes.delegate.missedBlocks') === '0') {
    fields.delete('attributes.delegate.missedBlocks');
  }
  return fields;
}
