import { describe, expect, it } from 'vitest';
import { WalletQueryError } from '../errors.js';
import { WalletRepository } from '../wallet-repository.js';
import { WalletQueryEngine } from './wallet-query-engine.js';

const key = (n: number) => `02${String(n).padStart(64, '0')}`;

/** Five delegates (one resigned, ranks by votes) and a few plain wallets voting for them. */
function ledger() {
  const repository = new WalletRepository();
  const delegates = [
    ['genesis_1', 500n, 1, 10],
    ['genesis_2', 300n, 2, 12],
    ['genesis_3', 300n, 3, 12],
    ['genesis_4', 100n, 4, 0],
  ] as const;
  delegates.forEach(([username, votes, rank, produced], i) => {
    repository.update(`D${i}`, {
      publicKey: key(i),
      balance: 1_000n,
      attributes: {
        delegate: {
          username,
          voteBalance: votes,
          forgedFees: 10n * BigInt(produced),
          forgedRewards: 200n * BigInt(produced),
          producedBlocks: produced,
          rank,
        },
      },
    });
  });
  repository.update('D9', {
    publicKey: key(9),
    attributes: {
      delegate: {
        username: 'quitter',
        voteBalance: 900n,
        forgedFees: 0n,
        forgedRewards: 0n,
        producedBlocks: 3,
        resigned: true,
      },
    },
  });
  repository.update('W1', { balance: 7n, attributes: { vote: key(0) } });
  repository.update('W2', { balance: 9_007_199_254_740_993n, attributes: { vote: key(1) } });
  repository.update('W3', { balance: 7n });
  return repository;
}

const names = (page: { results: readonly { attributes: { delegate?: { username: string } } }[] }) =>
  page.results.map((w) => w.attributes.delegate?.username);
const addresses = (page: { results: readonly { address: string }[] }) =>
  page.results.map((w) => w.address);

describe('WalletQueryEngine', () => {
  const engine = new WalletQueryEngine({ walletRepository: ledger() });

  it('answers the spec example shapes of the delegate index', () => {
    expect(
      names(
        engine.delegates({
          conditions: [{ kind: 'in', field: 'isResigned', values: [false] }],
          orderBy: [{ field: 'rank', direction: 'asc' }],
        }),
      ),
    ).toEqual(['genesis_1', 'genesis_2', 'genesis_3', 'genesis_4']);
    expect(
      names(
        engine.delegates({ conditions: [{ kind: 'in', field: 'blocks.produced', values: [12] }] }),
      ),
    ).toEqual(['genesis_2', 'genesis_3']);
    expect(
      names(
        engine.delegates({
          conditions: [
            { kind: 'in', field: 'username', values: ['genesis_1', 'quitter'] },
            { kind: 'in', field: 'isResigned', values: [true] },
          ],
        }),
      ),
    ).toEqual(['quitter']);
  });

  it('puts delegates without a rank last when ascending and first when descending', () => {
    const asc = engine.delegates({ orderBy: [{ field: 'rank', direction: 'asc' }] });
    expect(names(asc)).toEqual(['genesis_1', 'genesis_2', 'genesis_3', 'genesis_4', 'quitter']);
    const desc = engine.delegates({ orderBy: [{ field: 'rank', direction: 'desc' }] });
    expect(names(desc)).toEqual(['quitter', 'genesis_4', 'genesis_3', 'genesis_2', 'genesis_1']);
  });

  it("breaks ties with the next order key, then by address in the first key's direction", () => {
    const byVotes = engine.delegates({
      orderBy: [
        { field: 'votes', direction: 'desc' },
        { field: 'username', direction: 'desc' },
      ],
    });
    expect(names(byVotes)).toEqual(['quitter', 'genesis_1', 'genesis_3', 'genesis_2', 'genesis_4']);
    const tie = engine.wallets({
      conditions: [{ kind: 'in', field: 'balance', values: [7n] }],
      orderBy: [{ field: 'balance', direction: 'desc' }],
    });
    expect(addresses(tie)).toEqual(['W3', 'W1']);
  });

  it('pages with offset and limit and reports the exact total', () => {
    const page = engine.wallets({
      orderBy: [{ field: 'balance', direction: 'desc' }],
      offset: 1,
      limit: 2,
    });
    expect(page.totalCount).toBe(8);
    expect(addresses(page)).toEqual(['D3', 'D2']);
  });

  it('filters amounts beyond 2^53 exactly and ranges inclusively', () => {
    const big = engine.wallets({
      conditions: [{ kind: 'range', field: 'balance', from: 9_007_199_254_740_993n }],
    });
    expect(addresses(big)).toEqual(['W2']);
    const votes = engine.delegates({
      conditions: [{ kind: 'range', field: 'votes', from: 300, to: 500 }],
    });
    expect(votes.totalCount).toBe(3);
  });

  it('finds the voters of a delegate and wallets by a delegate attribute path', () => {
    expect(
      addresses(
        engine.wallets({
          conditions: [{ kind: 'in', field: 'attributes.vote', values: [key(0), key(1)] }],
        }),
      ),
    ).toEqual(['W1', 'W2']);
    expect(
      addresses(
        engine.wallets({
          conditions: [
            { kind: 'in', field: 'attributes.delegate.username', values: ['genesis_2'] },
          ],
        }),
      ),
    ).toEqual(['D1']);
  });

  it('orders delegates by forged total, a derived field', () => {
    const page = engine.delegates({
      orderBy: [{ field: 'forged.total', direction: 'desc' }],
      limit: 2,
    });
    expect(names(page)).toEqual(['genesis_3', 'genesis_2']);
  });

  it.each([
    [{ conditions: [{ kind: 'in', field: 'colour', values: ['red'] }] }, 'colour'],
    [{ conditions: [{ kind: 'in', field: 'rank', values: ['first'] }] }, 'rank'],
    [{ conditions: [{ kind: 'range', field: 'username', from: 'a' }] }, 'username'],
    [{ orderBy: [{ field: 'rank', direction: 'up' }] }, 'orderBy'],
    [{ orderBy: [{ field: 'balance', direction: 'asc' }] }, 'orderBy'],
    [{ offset: -1 }, 'offset'],
    [{ limit: 1.5 }, 'limit'],
  ])('refuses %j naming %s', (query, field) => {
    let error: unknown;
    try {
      engine.delegates(query as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WalletQueryError);
    expect((error as WalletQueryError).field).toBe(field);
  });

  it('estimates a total that would visit more wallets than its budget, and says so', () => {
    const repository = new WalletRepository();
    for (let n = 0; n < 1_000; n += 1) {
      repository.update(`W${String(n).padStart(4, '0')}`, {
        balance: BigInt(n + 1),
        nonce: BigInt(n % 4),
      });
    }
    const query = {
      conditions: [
        { kind: 'range' as const, field: 'balance', from: 1 },
        { kind: 'range' as const, field: 'nonce', from: 2 },
      ],
      limit: 10,
    };
    const exact = new WalletQueryEngine({ walletRepository: repository, queryStrategy: 'walk' });
    expect(exact.wallets(query)).toMatchObject({ totalCount: 500 });
    expect(exact.wallets(query).totalCountIsEstimate).toBeUndefined();
    const hurried = new WalletQueryEngine({
      walletRepository: repository,
      queryStrategy: 'walk',
      countBudget: 100,
    });
    const page = hurried.wallets(query);
    expect(page.totalCountIsEstimate).toBe(true);
    // Nonces cycle, so the first hundred hold the same share as all: the estimate is close.
    expect(page.totalCount).toBeGreaterThan(400);
    expect(page.totalCount).toBeLessThan(600);
    // The page itself is exact, and a total from index ranks needs no budget.
    expect(addresses(page)).toEqual(addresses(exact.wallets(query)));
    const single = hurried.wallets({ conditions: [query.conditions[1]!], limit: 1 });
    expect(single).toMatchObject({ totalCount: 500 });
    expect(single.totalCountIsEstimate).toBeUndefined();
  });
});
