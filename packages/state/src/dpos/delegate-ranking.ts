import type { Wallet } from '../wallets/wallet.js';
import type { WalletStore } from '../wallets/wallet-store.js';

/** ARK 3.0's ranking: vote balance descending, ties by public key ascending. */
export function compareByVotes(a: Wallet, b: Wallet): number {
  const votesA = a.attributes.delegate?.voteBalance ?? 0n;
  const votesB = b.attributes.delegate?.voteBalance ?? 0n;
  if (votesA !== votesB) return votesA > votesB ? -1 : 1;
  const keyA = a.publicKey ?? '';
  const keyB = b.publicKey ?? '';
  return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
}

/**
 * Ranks the delegates that have not resigned (rank 1 = most votes), clears the rank of resigned
 * ones, and returns the ranked delegates. Only wallets whose rank changes are rewritten.
 */
export function rankDelegates(repository: WalletStore): Wallet[] {
  const active: Wallet[] = [];
  for (const wallet of repository
    .index('attributes.delegate.username')
    .scan(undefined, undefined, false)) {
    const delegate = wallet.attributes.delegate;
    if (!delegate) continue;
    if (delegate.resigned === true) {
      if (delegate.rank !== undefined) {
        const { rank: _rank, ...unranked } = delegate;
        repository.update(wallet.address, { attributes: { delegate: unranked } });
      }
    } else {
      active.push(wallet);
    }
  }
  active.sort(compareByVotes);
  return active.map((wallet, position) => {
    const delegate = wallet.attributes.delegate;
    if (!delegate || delegate.rank === position + 1) return wallet;
    return repository.update(wallet.address, {
      attributes: { delegate: { ...delegate, rank: position + 1 } },
    });
  });
}
