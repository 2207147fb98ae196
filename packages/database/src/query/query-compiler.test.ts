import { describe, expect, it } from 'vitest';
import { QueryCriteriaError } from '../errors.js';
import { containmentDocuments } from './asset-path.js';
import { compileSearch, MAX_IN_VALUES } from './query-compiler.js';
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
    expect(compiled.count.sql).toBe(
      `SELECT count(*) AS count FROM transactions WHERE ${compiled.where}`,
    );
    // The order binds one parameter (the asset path), the page two.
    expect(compiled.count.params).toEqual(compiled.params.slice(0, -3));
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
    expect(byType.count.sql).toBe(
      'SELECT coalesce(sum(count), 0) AS count FROM transaction_totals WHERE ' +
        '(type_group = $1::integer AND ((type = ANY($2::smallint[])) OR ' +
        '(type >= $3::smallint AND type <= $4::smallint)))',
    );
    expect(byType.count.params).toEqual([1, [0, 6], 8, 10]);
    expect(compileSearch(blocksTable, { limit: 1, offset: 0 }).count.sql).toBe(
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
    expect(byAmount.count.sql).toMatch(/^SELECT count\(\*\) AS count FROM transactions WHERE/);
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
