import { describe, expect, it } from 'vitest';
import { QueryCriteriaError } from '../errors.js';
import { containmentDocuments } from './asset-path.js';
import { binder, compileSearch, MAX_IN_VALUES, type CountPlan } from './query-compiler.js';
import { blocksTable, transactionsTable } from './table-specs.js';

const HOSTILE = `x'); DELETE FROM blocks; -- "ü" 🚀`;

describe('compileSearch', () => {
  it('puts every caller value in parameters, never in the SQL text', () => {
    const compiled = compileSearch(transactionsTable, {
      criteria: {
        or: [
          { field: 'senderPublicKey', eq: HOSTILE },
          { field: 'recipientId', in: [HOSTILE, 'B'] },
          { field: 'asset.payments.recipientId', eq: HOSTILE },
          { field: 'asset.lock.expiration.value', from: '777', to: 999 },
          { address: HOSTILE, senderPublicKeys: [HOSTILE] },
        ],
      },
      orderBy: [{ field: 'asset.lock.expiration.value', direction: 'asc' }],
      limit: 10,
      offset: 20,
    });
    const sql = `${compiled.where} ${compiled.orderBy} ${compiled.limitOffset}`;
    expect(sql).not.toContain('DELETE');
    expect(sql).not.toMatch(/777|999|ü/);
    expect(sql).toMatch(
      /^\(sender_public_key = \$1::varchar OR \(recipient_id = ANY\(\$2::varchar\[\]\)\)/,
    );
    expect(compiled.params[0]).toBe(HOSTILE);
    expect(compiled.params.slice(-2)).toEqual([10, 20]);
    // Counted within the budget; the order binds one parameter (the asset path), the page two.
    expect(compiled.count).toEqual({
      kind: 'bounded',
      where: compiled.where,
      params: compiled.params.slice(0, -3),
    });
  });

  it('counts from the kept totals when the criteria touch only their grouped fields', () => {
    const byType = compileSearch(transactionsTable, {
      criteria: {
        and: [
          { field: 'typeGroup', eq: 1 },
          {
            or: [
              { field: 'type', in: [0, 6] },
              { field: 'type', from: 8, to: 10 },
            ],
          },
        ],
      },
      limit: 10,
      offset: 0,
    });
    // The total is bound after the page's own parameters, in the page's statement.
    const sumOf = (count: CountPlan, params: unknown[]) => {
      if (count.kind !== 'sum') throw new Error(`expected a sum, got ${count.kind}`);
      return count.sql(binder(params));
    };
    const params: unknown[] = ['page'];
    expect(sumOf(byType.count, params)).toBe(
      'SELECT coalesce(sum(count), 0) AS count FROM transaction_totals WHERE ' +
        '(type_group = $2::integer AND ((type = ANY($3::smallint[])) OR ' +
        '(type >= $4::smallint AND type <= $5::smallint)))',
    );
    expect(params).toEqual(['page', 1, [0, 6], 8, 10]);
    expect(sumOf(compileSearch(blocksTable, { limit: 1, offset: 0 }).count, [])).toBe(
      'SELECT coalesce(sum(count), 0) AS count FROM block_totals WHERE TRUE',
    );
    const byAmount = compileSearch(transactionsTable, {
      criteria: {
        and: [
          { field: 'type', eq: 0 },
          { field: 'amount', from: 5 },
        ],
      },
      limit: 10,
      offset: 0,
    });
    expect(byAmount.count.kind).toBe('bounded');
  });

  it('counts and pages addresses, senders and recipients through the party index', () => {
    const addresses = compileSearch(transactionsTable, {
      criteria: {
        and: [
          {
            or: [{ address: 'A1', senderPublicKeys: ['02aa'] }, { address: 'B2' }],
          },
        ],
      },
      orderBy: [{ field: 'timestamp', direction: 'desc' }],
      limit: 10,
      offset: 0,
    });
    const terms = [
      { party: 'A1', roles: 0b111 },
      { party: '02aa', roles: 0b111 },
      { party: 'B2', roles: 0b111 },
    ];
    expect(addresses.count).toEqual({ kind: 'parties', terms });
    expect(addresses.partyPage).toEqual({ terms, direction: 'DESC' });
    const received = compileSearch(transactionsTable, {
      criteria: {
        or: [
          { field: 'recipientId', eq: 'A1' },
          { field: 'asset.payments.recipientId', eq: 'A1' },
        ],
      },
      orderBy: [{ field: 'amount', direction: 'desc' }],
      limit: 10,
      offset: 0,
    });
    // Counted per role; another order than the chain's sorts the matches instead.
    expect(received.count).toEqual({ kind: 'parties', terms: [{ party: 'A1', roles: 0b110 }] });
    expect(received.partyPage).toBeUndefined();
    const withType = compileSearch(transactionsTable, {
      criteria: { and: [{ address: 'A1' }, { field: 'type', eq: 0 }] },
      limit: 10,
      offset: 0,
    });
    expect(withType.count.kind).toBe('bounded');
    expect(withType.where).toMatch(
      /\(block_height, sequence\) IN \(SELECT block_height, sequence FROM transaction_parties/,
    );
  });

  it('pages after a cursor: a row comparison in the chain order, term by term otherwise', () => {
    const chain = compileSearch(transactionsTable, {
      orderBy: [{ field: 'timestamp', direction: 'desc' }],
      after: [80, 10, 3],
      limit: 10,
      offset: 0,
    });
    expect(chain.where).toBe(
      'TRUE AND ("timestamp", block_height, sequence) < ($1::integer, $2::integer, $3::smallint)',
    );
    expect(chain.params.slice(0, 3)).toEqual([80, 10, 3]);
    const byRecipient = compileSearch(transactionsTable, {
      orderBy: [{ field: 'recipientId', direction: 'asc' }],
      after: [null, 10, 3],
      limit: 10,
      offset: 0,
    });
    // NULLs come last ascending: after a NULL recipient only NULLs further on.
    expect(byRecipient.params.slice(0, 4)).toEqual([3, 3, 10, 10]);
    expect(byRecipient.where).toBe(
      'TRUE AND (FALSE OR (recipient_id IS NULL AND ((block_height > $3::integer) OR ' +
        '(block_height = $4::integer AND ((sequence > $1::smallint) OR (sequence = $2::smallint AND FALSE))))))',
    );
    const refuse = (after: unknown[]) => () =>
      compileSearch(transactionsTable, { after: after as never, limit: 10, offset: 0 });
    expect(refuse([1])).toThrow(/"cursor"/);
    expect(refuse(['x', 1])).toThrow(/"cursor"/);
    expect(refuse([null, 1])).toThrow(/"cursor"/);
  });

  it('orders by the given fields, then by a unique key so pages never overlap', () => {
    const compiled = compileSearch(transactionsTable, {
      orderBy: [{ field: 'fee', direction: 'asc' }],
      limit: 1,
      offset: 0,
    });
    expect(compiled.orderBy).toBe('fee ASC, block_height ASC, sequence ASC');
    expect(compileSearch(blocksTable, { limit: 1, offset: 0 }).orderBy).toBe('height DESC');
  });

  it('matches asset keys that hold a value or a list, at every level', () => {
    expect(containmentDocuments(['payments', 'recipientId'], 'A')).toEqual([
      '{"payments":{"recipientId":"A"}}',
      '{"payments":[{"recipientId":"A"}]}',
      '{"payments":{"recipientId":["A"]}}',
      '{"payments":[{"recipientId":["A"]}]}',
    ]);
  });

  it('refuses what it cannot compile safely, naming the field', () => {
    const refuse = (criteria: Parameters<typeof compileSearch>[1]['criteria'], field: string) => {
      const attempt = () => compileSearch(transactionsTable, { criteria, limit: 10, offset: 0 });
      expect(attempt).toThrow(QueryCriteriaError);
      expect(attempt).toThrow(`"${field}"`);
    };
    refuse({ field: 'id', in: Array.from({ length: MAX_IN_VALUES + 1 }, () => 'a') }, 'id');
    refuse({ field: 'asset.a.b.c.d.e', eq: 1 }, 'asset.a.b.c.d.e');
    refuse({ field: "asset.x') OR 1=1", eq: 1 }, "asset.x') OR 1=1");
    refuse({ field: 'nonce', eq: 2n ** 64n }, 'nonce');
    refuse({ field: 'fee', eq: 1.5 }, 'fee');
    refuse({ field: 'asset.amount', eq: Number.POSITIVE_INFINITY }, 'asset.amount');
    for (const inherited of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      refuse({ field: inherited, eq: 1 }, inherited);
      const order = () =>
        compileSearch(transactionsTable, {
          orderBy: [{ field: inherited, direction: 'asc' }],
          limit: 10,
          offset: 0,
        });
      expect(order).toThrow(QueryCriteriaError);
    }
    expect(() => compileSearch(transactionsTable, { limit: 10, offset: -1 })).toThrow(/"offset"/);
  });
});
