import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMigratedTestDatabase, postgresSkipReason } from '../__fixtures__/postgres.js';
import { makeChain } from '../__fixtures__/chain.js';
import type { Database } from '../connection/database.js';
import { QueryCriteriaError } from '../errors.js';
import type { StoredTransaction } from '../records.js';
import { BlockStorage } from '../storage/block-storage.js';
import type { Criteria, OrderBy, SearchQuery } from './criteria.js';
import { BlockQuery, TransactionQuery } from './transaction-query.js';

const HOSTILE = `it's "quoted" \\ ünïcødé 🚀 '); DROP TABLE transactions; --`;

/** 20 blocks of 4: a transfer, a vote, a multipayment and a lock, by sequence. */
function shaped(height: number, sequence: number): Partial<StoredTransaction> {
  switch (sequence) {
    case 0:
      return {
        vendorField: height === 3 ? HOSTILE : `memo ${height}`,
        recipientId: `ARecv${height % 4}`,
        fee: BigInt(height) * 1_000_003n,
      };
    case 1:
      return { type: 3, recipientId: null, asset: { votes: [`+02vote${height % 2}`] } };
    case 2:
      return {
        type: 6,
        recipientId: null,
        asset: {
          payments: [
            { recipientId: `AMulti${height % 3}`, amount: '5' },
            { recipientId: HOSTILE, amount: '7' },
          ],
        },
      };
    default:
      return {
        type: 8,
        asset: { lock: { secretHash: `h${height}`, expiration: { value: height * 10 } } },
      };
  }
}

describe.skipIf(postgresSkipReason)('TransactionQuery on PostgreSQL', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let query: TransactionQuery;
  const chain = makeChain(20, 4, 1, shaped);
  const all = chain.flatMap((entry) => entry.transactions);

  const search = (criteria: Criteria, extra: Partial<SearchQuery> = {}) =>
    query.search({ criteria, limit: 100, offset: 0, ...extra });
  const ids = (list: readonly StoredTransaction[]) => list.map((t) => t.id).sort();
  const expectMatch = async (criteria: Criteria, predicate: (t: StoredTransaction) => boolean) => {
    const page = await search(criteria);
    const expected = all.filter(predicate);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(page.results)).toEqual(ids(expected));
    expect(page.totalCount).toBe(expected.length);
  };

  beforeAll(async () => {
    ({ database, dispose } = await openMigratedTestDatabase());
    await new BlockStorage({ database }).saveBlocks(chain);
    query = new TransactionQuery({ database });
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('eq on columns, including amounts as bigint and NULL', async () => {
    await expectMatch({ field: 'type', eq: 6 }, (t) => t.type === 6);
    await expectMatch({ field: 'amount', eq: 300_000_000n }, (t) => t.amount === 300_000_000n);
    await expectMatch({ field: 'recipientId', eq: null }, (t) => t.recipientId === null);
    await expectMatch({ field: 'vendorField', eq: 'memo 4' }, (t) => t.vendorField === 'memo 4');
  });

  it('in-lists of 1,000 values, hostile ones included', async () => {
    const wanted = all.filter((t) => t.blockHeight % 2 === 0).map((t) => t.id);
    const values = [...wanted, HOSTILE];
    while (values.length < 1000) values.push(`'${values.length}' OR 1=1 --`);
    await expectMatch({ field: 'id', in: values }, (t) => wanted.includes(t.id));
    await expectMatch({ field: 'recipientId', in: ['ARecv1', null] }, (t) =>
      [null, 'ARecv1'].includes(t.recipientId),
    );
  });

  it('fee statistics per type over the transactions since a time', async () => {
    // From height 10, 11 transfers (an odd count); from height 11, 10 (an even one).
    for (const since of [10 * 8, 11 * 8]) {
      const expected = new Map<string, bigint[]>();
      for (const t of all.filter((candidate) => candidate.timestamp >= since)) {
        const key = `${t.typeGroup}/${t.type}`;
        expected.set(key, [...(expected.get(key) ?? []), t.fee]);
      }
      const statistics = await query.feeStatistics(since);
      expect(statistics.map((s) => `${s.typeGroup}/${s.type}`).sort()).toEqual(
        [...expected.keys()].sort(),
      );
      for (const statistic of statistics) {
        const fees = expected.get(`${statistic.typeGroup}/${statistic.type}`) ?? [];
        const sum = fees.reduce((total, fee) => total + fee, 0n);
        const count = BigInt(fees.length);
        const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const lower = sorted[Math.floor((sorted.length - 1) / 2)] as bigint;
        const upper = sorted[Math.ceil((sorted.length - 1) / 2)] as bigint;
        expect(statistic).toEqual({
          typeGroup: statistic.typeGroup,
          type: statistic.type,
          sum,
          avg: (2n * sum + count) / (2n * count),
          median: (lower + upper + 1n) / 2n,
          min: sorted[0],
          max: sorted.at(-1),
        });
      }
    }
    expect(await query.feeStatistics(21 * 8)).toEqual([]);
  });

  it('ranges with from, to or both', async () => {
    await expectMatch(
      { field: 'blockHeight', from: 5, to: 7 },
      (t) => t.blockHeight >= 5 && t.blockHeight <= 7,
    );
    await expectMatch({ field: 'amount', from: '1800000000' }, (t) => t.amount >= 1_800_000_000n);
    await expectMatch({ field: 'timestamp', to: 16 }, (t) => t.timestamp <= 16);
  });

  it('and/or trees', async () => {
    await expectMatch(
      {
        and: [
          { field: 'type', eq: 0 },
          {
            or: [
              { field: 'blockHeight', eq: 2 },
              { field: 'blockHeight', eq: 9 },
            ],
          },
        ],
      },
      (t) => t.type === 0 && (t.blockHeight === 2 || t.blockHeight === 9),
    );
  });

  it('jsonb paths into the asset: arrays of values and of objects, in-lists and ranges', async () => {
    await expectMatch(
      { field: 'asset.votes', eq: '+02vote1' },
      (t) => t.type === 3 && t.blockHeight % 2 === 1,
    );
    await expectMatch(
      { field: 'asset.payments.recipientId', eq: 'AMulti2' },
      (t) => t.type === 6 && t.blockHeight % 3 === 2,
    );
    await expectMatch({ field: 'asset.payments.recipientId', eq: HOSTILE }, (t) => t.type === 6);
    await expectMatch(
      { field: 'asset.lock.secretHash', in: ['h1', 'h20', `"h2"`] },
      (t) => t.type === 8 && [1, 20].includes(t.blockHeight),
    );
    await expectMatch(
      { field: 'asset.lock.expiration.value', from: 150, to: 170 },
      (t) => t.type === 8 && t.blockHeight >= 15 && t.blockHeight <= 17,
    );
  });

  it('address means sender, recipient or multipayment recipient', async () => {
    const sender = all[5]?.senderPublicKey as string;
    await expectMatch({ address: 'ARecv2' }, (t) => t.recipientId === 'ARecv2');
    await expectMatch({ address: 'AMulti0' }, (t) => t.type === 6 && t.blockHeight % 3 === 0);
    await expectMatch(
      { address: 'ARecv3', senderPublicKeys: [sender] },
      (t) => t.recipientId === 'ARecv3' || t.senderPublicKey === sender,
    );
  });

  it('pages an address search in the asked order, with the default order after it', async () => {
    const sender = all[5]?.senderPublicKey as string;
    const criteria: Criteria = {
      or: [{ address: 'ARecv1' }, { address: 'AMulti2', senderPublicKeys: [sender] }],
    };
    const matching = all.filter(
      (t) =>
        t.recipientId === 'ARecv1' ||
        t.senderPublicKey === sender ||
        (t.type === 6 && t.blockHeight % 3 === 2),
    );
    const newestFirst = (a: StoredTransaction, b: StoredTransaction) =>
      b.blockHeight - a.blockHeight || b.sequence - a.sequence;
    const byFee = [...matching].sort((a, b) => Number(a.fee - b.fee) || newestFirst(b, a));
    const seen: string[] = [];
    for (let offset = 0; offset < matching.length; offset += 4) {
      const page = await search(criteria, {
        orderBy: [{ field: 'fee', direction: 'asc' }],
        limit: 4,
        offset,
      });
      expect(page.totalCount).toBe(matching.length);
      seen.push(...page.results.map((t) => t.id));
    }
    // Ties in fee fall back to the oldest first (the unique key, in the last key's direction).
    expect(seen).toEqual(byFee.map((t) => t.id));
    const defaultOrder = await search(criteria, { limit: 100 });
    expect(defaultOrder.results.map((t) => t.id)).toEqual(
      [...matching].sort(newestFirst).map((t) => t.id),
    );
  });

  it('address=A,B pages newest first from the party index, each transaction once', async () => {
    const sender = all[0]?.senderPublicKey as string;
    // ARecv1 receives from `sender` too: those transactions match twice but count once.
    const criteria: Criteria = {
      or: [{ address: 'ARecv1' }, { address: 'AMulti2', senderPublicKeys: [sender] }],
    };
    const matching = all
      .filter(
        (t) =>
          t.recipientId === 'ARecv1' ||
          t.senderPublicKey === sender ||
          (t.type === 6 && t.blockHeight % 3 === 2),
      )
      .sort((a, b) => b.blockHeight - a.blockHeight || b.sequence - a.sequence);
    expect(
      matching.filter((t) => t.recipientId === 'ARecv1' && t.senderPublicKey === sender).length,
    ).toBeGreaterThan(0);
    const walked: string[] = [];
    for (let offset = 0; offset < matching.length + 3; offset += 3) {
      const page = await search(criteria, {
        orderBy: [{ field: 'timestamp', direction: 'desc' }],
        limit: 3,
        offset,
      });
      if (page.results.length === 3) expect(page.totalCount).toBe(matching.length);
      walked.push(...page.results.map((t) => t.id));
    }
    expect(walked).toEqual(matching.map((t) => t.id));
    // Senders and recipients alone are counted from the kept totals too.
    await expectMatch(
      { field: 'senderPublicKey', eq: sender },
      (t) => t.senderPublicKey === sender,
    );
    await expectMatch(
      {
        or: [
          { field: 'recipientId', eq: 'AMulti1' },
          { field: 'asset.payments.recipientId', eq: 'AMulti1' },
        ],
      },
      (t) => t.type === 6 && t.blockHeight % 3 === 1,
    );
  });

  it('the total of several parties counts a shared transaction once, in any roles', async () => {
    const sender = all[0]?.senderPublicKey as string;
    const cases: [Criteria, (t: StoredTransaction) => boolean][] = [
      // Two parties in any role: their common transactions subtracted once.
      [
        { address: 'ARecv1', senderPublicKeys: [sender] },
        (t) => t.recipientId === 'ARecv1' || t.senderPublicKey === sender,
      ],
      // Three parties in any role.
      [
        { or: [{ address: 'ARecv1' }, { address: 'AMulti2', senderPublicKeys: [sender] }] },
        (t) =>
          t.recipientId === 'ARecv1' ||
          t.senderPublicKey === sender ||
          (t.type === 6 && t.blockHeight % 3 === 2),
      ],
      // Parties in one role each.
      [
        {
          or: [
            { field: 'senderPublicKey', eq: sender },
            { field: 'recipientId', eq: 'ARecv1' },
          ],
        },
        (t) => t.senderPublicKey === sender || t.recipientId === 'ARecv1',
      ],
      // Multipayment recipients, one of them hostile text: every multipayment pays both.
      [{ field: 'asset.payments.recipientId', in: ['AMulti1', HOSTILE] }, (t) => t.type === 6],
    ];
    for (const [criteria, predicate] of cases) {
      const expected = all.filter(predicate).length;
      // A page shorter than the matches: the total comes from the kept totals, not the page.
      const page = await search(criteria, { limit: 2 });
      expect(page.results).toHaveLength(2);
      expect(page.totalCount).toBe(expected);
      expect(page.totalCountIsEstimate).toBeUndefined();
      // Past the end the page is empty and still tells the total.
      const beyond = await search(criteria, { limit: 2, offset: expected + 10 });
      expect(beyond).toMatchObject({ results: [], totalCount: expected });
    }
    // Two parties of transfers are counted by their kept pair total: exact whatever the budget.
    const small = new TransactionQuery({ database }, { countBudget: 3 });
    const [pairCriteria, pairPredicate] = cases[0] as (typeof cases)[0];
    const paired = await small.search({ criteria: pairCriteria, limit: 2, offset: 0 });
    expect(paired.totalCount).toBe(all.filter(pairPredicate).length);
    expect(paired.totalCountIsEstimate).toBeUndefined();
    // Multipayments are read to be counted: past the budget, the sum of the parties' totals,
    // flagged as an estimate.
    const [criteria, predicate] = cases[1] as (typeof cases)[1];
    const multipayments = all.filter((t) => t.type === 6 && t.blockHeight % 3 === 2).length;
    expect(multipayments).toBeGreaterThan(3);
    const estimated = await small.search({ criteria, limit: 2, offset: 0 });
    const sum =
      all.filter((t) => t.recipientId === 'ARecv1').length +
      all.filter((t) => t.senderPublicKey === sender).length +
      multipayments;
    expect(sum).toBeGreaterThan(all.filter(predicate).length);
    expect(estimated).toMatchObject({ totalCount: sum, totalCountIsEstimate: true });
  });

  it('a cursor walk visits every row once, in the order of the offset pages', async () => {
    const orders: (readonly OrderBy[])[] = [
      [],
      [{ field: 'timestamp', direction: 'desc' }],
      [{ field: 'amount', direction: 'asc' }],
      [{ field: 'recipientId', direction: 'asc' }],
      [
        { field: 'recipientId', direction: 'desc' },
        { field: 'fee', direction: 'asc' },
      ],
      [{ field: 'asset.lock.expiration.value', direction: 'desc' }],
    ];
    const scopes: (Criteria | undefined)[] = [
      undefined,
      { address: 'ARecv2', senderPublicKeys: [all[5]?.senderPublicKey as string] },
    ];
    for (const criteria of scopes) {
      for (const orderBy of orders) {
        const expected = await query.search({
          ...(criteria && { criteria }),
          orderBy,
          limit: 1000,
          offset: 0,
        });
        const walked: string[] = [];
        let after: SearchQuery['after'];
        for (let pages = 0; pages < 100; pages += 1) {
          const page = await query.search({
            ...(criteria && { criteria }),
            orderBy,
            limit: 7,
            offset: 0,
            ...(after && { after }),
          });
          walked.push(...page.results.map((t) => t.id));
          if (!page.next) break;
          expect(page.totalCount).toBe(expected.totalCount);
          after = page.next;
        }
        expect(walked, JSON.stringify(orderBy)).toEqual(expected.results.map((t) => t.id));
      }
    }
  });

  it('past the count budget the total is the planner estimate, flagged', async () => {
    const small = new TransactionQuery({ database }, { countBudget: 10 });
    const broad = await small.search({
      criteria: { field: 'amount', from: 1 },
      limit: 5,
      offset: 0,
    });
    expect(broad.totalCountIsEstimate).toBe(true);
    expect(broad.totalCount).toBeGreaterThan(10);
    // Kept totals stay exact whatever their size.
    const byType = await small.search({ criteria: { field: 'type', eq: 0 }, limit: 5, offset: 0 });
    expect(byType).toMatchObject({ totalCount: 20 });
    expect(byType.totalCountIsEstimate).toBeUndefined();
    const within = await small.search({
      criteria: { field: 'amount', from: 1_900_000_000 },
      limit: 5,
      offset: 0,
    });
    expect(within.totalCount).toBe(all.filter((t) => t.amount >= 1_900_000_000n).length);
    expect(within.totalCountIsEstimate).toBeUndefined();
  });

  it('a search past its time budget is cancelled with a typed error, freeing the database', async () => {
    const hurried = new TransactionQuery({ database, databaseOptions: { searchTimeoutMs: 100 } });
    const blocker = database.dataSource.createQueryRunner();
    await blocker.connect();
    try {
      // A writer holding the table: the search would wait for it past its budget.
      await blocker.startTransaction();
      await blocker.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
      // A counted total (a snapshot of several statements) and a kept one (one statement).
      for (const criteria of [{ field: 'amount', from: 1 }, { address: 'ARecv1' }]) {
        await expect(hurried.search({ criteria, limit: 5, offset: 0 })).rejects.toMatchObject({
          code: 'ERR_DB_SEARCH_TIMEOUT',
          timeoutMs: 100,
        });
      }
    } finally {
      await blocker.rollbackTransaction();
      await blocker.release();
    }
    expect((await hurried.search({ limit: 1, offset: 0 })).totalCount).toBe(all.length);
  });

  it('hostile text matches literally and never alters the query', async () => {
    await expectMatch({ field: 'vendorField', eq: HOSTILE }, (t) => t.vendorField === HOSTILE);
    const page = await search({ field: 'senderPublicKey', eq: "' OR ''='" });
    expect(page).toEqual({ results: [], totalCount: 0 });
    expect((await search({ field: 'id', eq: 'x' })).totalCount).toBe(0);
    expect((await query.search({ limit: 1, offset: 0 })).totalCount).toBe(all.length);
  });

  it('bad values get a typed error naming the field', async () => {
    const rejects = (criteria: Criteria, field: string) =>
      expect(search(criteria)).rejects.toMatchObject({ name: QueryCriteriaError.name, field });
    await rejects({ field: 'amount', eq: 10n ** 30n }, 'amount');
    await rejects({ field: 'amount', eq: '12abc' }, 'amount');
    await rejects({ field: 'type', eq: 70_000 }, 'type');
    await rejects({ field: 'senderPublicKey', eq: 'a\u0000b' }, 'senderPublicKey');
    await rejects({ field: 'password', eq: 'x' }, 'password');
    await rejects({ field: 'asset.a-b', eq: 'x' }, 'asset.a-b');
    await rejects({ field: 'fee' }, 'fee');
    await rejects(
      { field: 'asset.lock.expiration.value', from: 'ten' },
      'asset.lock.expiration.value',
    );
    await expect(
      query.search({ limit: 100, offset: 0, orderBy: [{ field: 'fee; DROP', direction: 'asc' }] }),
    ).rejects.toBeInstanceOf(QueryCriteriaError);
    await expect(query.search({ limit: 0, offset: 0 })).rejects.toMatchObject({ field: 'limit' });
  });

  it('orders on columns and asset paths, pages with limit/offset and counts exactly', async () => {
    const first = await query.search({
      criteria: { field: 'type', eq: 8 },
      orderBy: [{ field: 'asset.lock.expiration.value', direction: 'desc' }],
      limit: 3,
      offset: 2,
    });
    expect(first.results.map((t) => t.blockHeight)).toEqual([18, 17, 16]);
    expect(first.totalCount).toBe(20);
    // The last, partial page and a page past the end both know the exact total.
    const locks = (offset: number) =>
      query.search({ criteria: { field: 'type', eq: 8 }, limit: 3, offset });
    expect(await locks(18)).toMatchObject({ totalCount: 20 });
    expect((await locks(18)).results).toHaveLength(2);
    expect(await locks(25)).toEqual({ results: [], totalCount: 20 });
    const byAmount = await query.search({
      orderBy: [{ field: 'amount', direction: 'asc' }],
      limit: 5,
      offset: 0,
    });
    expect(byAmount.results.map((t) => [t.blockHeight, t.sequence])).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [1, 3],
      [2, 0],
    ]);
    const latest = await query.search({ limit: 2, offset: 0 });
    expect(latest.results.map((t) => [t.blockHeight, t.sequence])).toEqual([
      [20, 3],
      [20, 2],
    ]);
  });

  it('searches blocks with the same compiler', async () => {
    const blocks = new BlockQuery({ database });
    const page = await blocks.search({
      criteria: { field: 'height', from: 3, to: 6 },
      orderBy: [{ field: 'height', direction: 'asc' }],
      limit: 2,
      offset: 1,
    });
    expect(page.results.map((b) => b.height)).toEqual([4, 5]);
    expect(page.totalCount).toBe(4);
    await expect(
      blocks.search({ criteria: { address: 'A' }, limit: 1, offset: 0 }),
    ).rejects.toMatchObject({
      field: 'address',
    });
  });
});
