import type { Wallet } from '../wallets/wallet.js';
import type { WalletChange } from '../wallets/wallet-change.js';
import type { WalletStore } from '../wallets/wallet-store.js';

/** What a wallet's vote weighs: its balance plus what it has locked in HTLCs (ARK 3.0). */
export function voteWeight(wallet: Wallet): bigint {
  return wallet.balance + (wallet.attributes.htlc?.lockedBalance ?? 0n);
}

/**
 * Changes a wallet and moves its vote weight with it: a balance or lock change adjusts the
 * delegate it votes for, a new vote moves the whole weight from the old delegate to the new.
 * Every state change of a transaction or block goes through here so vote balances never lag.
 */
export function changeWallet(
  repository: WalletStore,
  address: string,
  change: WalletChange | ((wallet: Wallet) => WalletChange),
): Wallet {
  const before = repository.getOrEmpty(address);
  const after = repository.update(address, change);
  const votedBefore = before.attributes.vote;
  const votedAfter = after.attributes.vote;
  const weightBefore = voteWeight(before);
  const weightAfter = voteWeight(after);
  if (votedBefore === votedAfter) {
    if (votedAfter !== undefined && weightBefore !== weightAfter) {
      addVotes(repository, votedAfter, weightAfter - weightBefore);
    }
    return repository.get(address) as Wallet;
  }
  if (votedBefore !== undefined) addVotes(repository, votedBefore, -weightBefore);
  if (votedAfter !== undefined) addVotes(repository, votedAfter, weightAfter);
  return repository.get(address) as Wallet;
}

function addVotes(repository: WalletStore, delegateKey: string, amount: bigint): void {
  const delegate = repository.byPublicKey(delegateKey);
  const attributes = delegate?.attributes.delegate;
  // Handlers refuse votes for unknown delegates; a vote left on a vanished one weighs nothing.
  if (!delegate || !attributes) return;
  repository.update(delegate.address, {
    attributes: { delegate: { ...attributes, voteBalance: attributes.voteBalance + amount } },
  });
}

/**
 * Recomputes every delegate's vote balance from its voters (boot, consistency check): the
 * voters of each delegate are one range of the `attributes.vote` index, so this reads only
 * voting wallets.
 */
export function rebuildVoteBalances(repository: WalletStore): void {
  const delegates = [
    ...repository.index('attributes.delegate.username').scan(undefined, undefined, false),
  ];
  const totals = new Map<string, bigint>();
  for (const voter of repository.index('attributes.vote').scan(undefined, undefined, false)) {
    const key = voter.attributes.vote as string;
    totals.set(key, (totals.get(key) ?? 0n) + voteWeight(voter));
  }
  for (const delegate of delegates) {
    const attributes = delegate.attributes.delegate;
    if (!attributes) continue;
    const voteBalance = (delegate.publicKey && totals.get(delegate.publicKey)) || 0n;
    if (voteBalance !== attributes.voteBalance) {
      repository.update(delegate.address, {
        attributes: { delegate: { ...attributes, voteBalance } },
      });
    }
  }
}
