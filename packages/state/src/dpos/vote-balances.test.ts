import { describe, expect, it } from 'vitest';
import type { DelegateAttributes } from '../wallets/wallet.js';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { rankDelegates } from './delegate-ranking.js';
import { changeWallet, rebuildVoteBalances } from './vote-balances.js';

const key = (n: number) => `02${String(n).repeat(64)}`;
const delegate = (
  username: string,
  extra: Partial<DelegateAttributes> = {},
): DelegateAttributes => ({
  username,
  voteBalance: 0n,
  forgedFees: 0n,
  forgedRewards: 0n,
  producedBlocks: 0,
  ...extra,
});

function ledger() {
  const repository = new WalletRepository();
  repository.update('D1', { publicKey: key(1), attributes: { delegate: delegate('one') } });
  repository.update('D2', { publicKey: key(2), attributes: { delegate: delegate('two') } });
  return repository;
}

const votes = (repository: WalletRepository, username: string) =>
  repository.byUsername(username)?.attributes.delegate?.voteBalance;

describe('vote balances', () => {
  it('follow every balance change of a voter, locked HTLC balance included', () => {
    const repository = ledger();
    changeWallet(repository, 'V', { balance: 100n, attributes: { vote: key(1) } });
    expect(votes(repository, 'one')).toBe(100n);
    changeWallet(repository, 'V', (w) => ({ balance: w.balance - 30n }));
    expect(votes(repository, 'one')).toBe(70n);
    // Locking 20 in an HTLC moves it out of the balance but it still counts for the vote.
    changeWallet(repository, 'V', (w) => ({
      balance: w.balance - 20n,
      attributes: { htlc: { locks: {}, lockedBalance: 20n } },
    }));
    expect(votes(repository, 'one')).toBe(70n);
  });

  it('move the whole weight when the vote changes and drop it on unvote', () => {
    const repository = ledger();
    changeWallet(repository, 'V', { balance: 50n, attributes: { vote: key(1) } });
    changeWallet(repository, 'V', { attributes: { vote: key(2) } });
    expect([votes(repository, 'one'), votes(repository, 'two')]).toEqual([0n, 50n]);
    changeWallet(repository, 'V', { attributes: { vote: undefined } });
    expect(votes(repository, 'two')).toBe(0n);
  });

  it('are rebuilt from the voters alone', () => {
    const repository = ledger();
    repository.update('V1', {
      balance: 10n,
      attributes: { vote: key(2), htlc: { locks: {}, lockedBalance: 5n } },
    });
    repository.update('V2', { balance: 7n, attributes: { vote: key(2) } });
    repository.update('D1', (w) => ({
      attributes: {
        delegate: { ...(w.attributes.delegate as DelegateAttributes), voteBalance: 999n },
      },
    }));
    rebuildVoteBalances(repository);
    expect([votes(repository, 'one'), votes(repository, 'two')]).toEqual([0n, 22n]);
  });
});

describe('rankDelegates', () => {
  it('ranks the active delegates 1..m by votes (ties by public key), then the resigned ones', () => {
    const repository = new WalletRepository();
    repository.update('DA', {
      publicKey: key(3),
      attributes: { delegate: delegate('c', { voteBalance: 5n }) },
    });
    repository.update('DB', {
      publicKey: key(1),
      attributes: { delegate: delegate('a', { voteBalance: 5n }) },
    });
    repository.update('DC', {
      publicKey: key(2),
      attributes: { delegate: delegate('b', { voteBalance: 9n }) },
    });
    repository.update('DD', {
      publicKey: key(4),
      attributes: { delegate: delegate('d', { voteBalance: 99n, resigned: true }) },
    });
    repository.update('DE', {
      publicKey: key(5),
      attributes: { delegate: delegate('e', { voteBalance: 1n, resigned: true }) },
    });
    rankDelegates(repository);
    const rankOf = (username: string) => repository.byUsername(username)?.attributes.delegate?.rank;
    // d has the most votes but resigned: ranked after every active delegate, before e.
    expect(['b', 'a', 'c', 'd', 'e'].map(rankOf)).toEqual([1, 2, 3, 4, 5]);
  });
});
