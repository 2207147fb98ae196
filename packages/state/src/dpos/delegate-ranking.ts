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

/** Every delegate, resigned ones included, most votes first. */
export function delegatesByVotes(repository: WalletStore): Wallet[] {
  return [
    ...repository.index('attributes.delegate.username').scan(undefined, undefined, false),
  ].sort(compareByVotes);
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
