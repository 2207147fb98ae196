import { isActiveDelegate, type Wallet } from '../wallets/wallet.js';
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
 * Gives every delegate its rank: the active delegates 1..m by current votes, as ARK 3.0 ranks
 * them (so the top `activeDelegates` ranks are the next round's delegates), then the resigned
 * ones m+1..n by votes. ARK removes a resigned delegate's rank; here every delegate keeps an
 * integer one, and the active ranks skip no number. Only wallets whose rank changes are
 * rewritten.
 */
export function rankDelegates(repository: WalletStore): void {
  const byVotes = delegatesByVotes(repository);
  const ranked = [
    ...byVotes.filter(isActiveDelegate),
    ...byVotes.filter((wallet) => !isActiveDelegate(wallet)),
  ];
  ranked.forEach((wallet, position) => {
    const delegate = wallet.attributes.delegate;
    if (!delegate || delegate.rank === position + 1) return;
    repository.update(wallet.address, {
      attributes: { delegate: { ...delegate, rank: position + 1 } },
    });
  });
}
