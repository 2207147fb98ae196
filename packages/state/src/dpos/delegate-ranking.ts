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
 * Every delegate, resigned ones included, most votes first (compareByVotes). Read from the
 * vote-balance index, already in vote order: only delegates with equal votes need sorting.
 */
export function delegatesByVotes(repository: WalletStore): Wallet[] {
  const ordered: Wallet[] = [];
  let tied: Wallet[] = [];
  const flush = () => {
    if (tied.length > 1) tied.sort(compareByVotes);
    for (const wallet of tied) ordered.push(wallet);
    tied = [];
  };
  for (const wallet of repository
    .index('attributes.delegate.voteBalance')
    .scan(undefined, undefined, true)) {
    if (tied[0]?.attributes.delegate?.voteBalance !== wallet.attributes.delegate?.voteBalance) {
      flush();
    }
    tied.push(wallet);
  }
  flush();
  return ordered;
}

/**
 * Gives every delegate, resigned ones included, its rank by current votes (1 = most votes), so
 * that ranks always follow `orderBy=votes:desc`. Only wallets whose rank changes are rewritten.
 */
export function rankDelegates(repository: WalletStore): void {
  delegatesByVotes(repository).forEach((wallet, position) => {
    const delegate = wallet.attributes.delegate;
    if (!delegate || delegate.rank === position + 1) return;
    repository.update(wallet.address, {
      attributes: { delegate: { ...delegate, rank: position + 1 } },
    });
  });
}
