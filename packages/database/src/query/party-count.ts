import type { EntityManager } from 'typeorm';
import { partyCondition, rolesOf, type PartyTerm } from './parties.js';
import { preparedQuery } from './prepared.js';

/** A total and whether it is an estimate (a budget stopped the exact count). */
export interface Total {
  readonly count: number;
  readonly estimate: boolean;
}

/**
 * The exact number of transactions of any of `terms`, from the kept per-party totals: one
 * party's total is a probe; for several, the largest is taken whole and each other one adds
 * only its transactions no earlier term has (a transaction between A and B counts once), found
 * by probing the index per transaction of the smaller parties. When those probes would exceed
 * `budget`, the sum of the totals is answered as an estimate.
 */
export async function countParties(
  manager: EntityManager,
  terms: readonly PartyTerm[],
  budget: number,
): Promise<Total> {
  if (terms.length === 0) return { count: 0, estimate: false };
  const rows = await preparedQuery<{ party: string; role: number; count: string }>(
    manager,
    'SELECT party, role, count FROM party_totals WHERE party = ANY($1::text[])',
    [terms.map((term) => term.party)],
  );
  const totals = terms
    .map((term) => {
      const roles = rolesOf(term.roles);
      const total = rows
        .filter((row) => row.party === term.party && roles.includes(Number(row.role)))
        .reduce((sum, row) => sum + Number(row.count), 0);
      return { term, total };
    })
    .filter(({ total }) => total > 0)
    .sort((a, b) => b.total - a.total);
  const sum = totals.reduce((all, { total }) => all + total, 0);
  const [largest, ...others] = totals;
  if (largest === undefined) return { count: 0, estimate: false };
  const probes = others.reduce((all, { total }, index) => all + total * (index + 1), 0);
  if (probes > budget) return { count: sum, estimate: true };
  let count = largest.total;
  for (const [index, { term }] of others.entries()) {
    const params: unknown[] = [];
    const bind = (value: unknown, cast?: string) => {
      params.push(value);
      return cast ? `$${params.length}::${cast}` : `$${params.length}`;
    };
    const earlier = [largest, ...others.slice(0, index)].map((entry) => entry.term);
    const [fresh] = await preparedQuery<{ count: string }>(
      manager,
      `SELECT count(*) AS count FROM transaction_parties AS candidate
       WHERE ${partyCondition([term], bind, 'candidate')}
         AND NOT EXISTS (
           SELECT 1 FROM transaction_parties AS seen
           WHERE ${partyCondition(earlier, bind, 'seen')}
             AND seen.block_height = candidate.block_height AND seen.sequence = candidate.sequence)`,
      params,
    );
    count += Number(fresh?.count ?? 0);
  }
  return { count, estimate: false };
}
