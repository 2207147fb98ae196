import { PartyRole } from '../migrations/1764400000000-transaction-parties.js';
import type { Criteria } from './criteria.js';
import { checkText } from './values.js';

/** Every role: the party is sender, recipient or multipayment recipient. */
export const ANY_ROLE = 0b111;

/** One party of the `transaction_parties` index, in the roles (a bit mask) that match. */
export interface PartyTerm {
  readonly party: string;
  readonly roles: number;
}

/** The fields whose equality is a party in one role. */
const ROLE_OF_FIELD: Readonly<Record<string, number>> = {
  senderPublicKey: 1 << PartyRole.sender,
  recipientId: 1 << PartyRole.recipient,
  'asset.payments.recipientId': 1 << PartyRole.payment,
};

/**
 * The party terms a criterion amounts to, when it names parties only: an `address` (as itself
 * and as its senders' public keys), `senderPublicKey`, `recipientId` or a multipayment recipient
 * by equality, or any `or` of those. Undefined for anything else (compiled as plain criteria).
 */
export function partyTerms(criteria: Criteria): PartyTerm[] | undefined {
  const terms = collect(criteria);
  if (terms === undefined) return undefined;
  // One term per party, its roles merged: a transaction is then found once per term.
  const merged = new Map<string, number>();
  for (const { party, roles } of terms) merged.set(party, (merged.get(party) ?? 0) | roles);
  return [...merged].map(([party, roles]) => ({ party, roles }));
}

function collect(criteria: Criteria): PartyTerm[] | undefined {
  if ('or' in criteria) {
    if (!Array.isArray(criteria.or)) return undefined;
    const all: PartyTerm[] = [];
    for (const part of criteria.or) {
      const terms = collect(part);
      if (terms === undefined) return undefined;
      all.push(...terms);
    }
    return all;
  }
  if ('and' in criteria) {
    return Array.isArray(criteria.and) && criteria.and.length === 1
      ? collect(criteria.and[0] as Criteria)
      : undefined;
  }
  if ('address' in criteria) {
    const keys = Array.isArray(criteria.senderPublicKeys) ? criteria.senderPublicKeys : [];
    return [
      { party: checkText('address', criteria.address), roles: ANY_ROLE },
      ...keys.map((key) => ({ party: checkText('senderPublicKeys', key), roles: ANY_ROLE })),
    ];
  }
  const roles = typeof criteria.field === 'string' ? ROLE_OF_FIELD[criteria.field] : undefined;
  if (roles === undefined || !Object.hasOwn(ROLE_OF_FIELD, criteria.field)) return undefined;
  const values = 'eq' in criteria ? [criteria.eq] : 'in' in criteria ? criteria.in : undefined;
  if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
    return undefined;
  }
  return (values as string[]).map((value) => ({
    party: checkText(criteria.field, value),
    roles,
  }));
}

/** Roles of a mask, as the `role` column stores them. */
export function rolesOf(mask: number): number[] {
  return Object.values(PartyRole).filter((role) => (mask & (1 << role)) !== 0);
}

/**
 * The condition on `transaction_parties` (as `alias`) matching `terms`, each value bound:
 * terms of the same roles share one `party = ANY(...)`.
 */
export function partyCondition(
  terms: readonly PartyTerm[],
  bind: (value: unknown, cast?: string) => string,
  alias = 'transaction_parties',
): string {
  const byRoles = new Map<number, string[]>();
  for (const { party, roles } of terms) byRoles.set(roles, [...(byRoles.get(roles) ?? []), party]);
  const parts = [...byRoles].map(([roles, parties]) => {
    // One party compares by equality: PostgreSQL then reads its range in index order.
    const party =
      parties.length === 1
        ? `${alias}.party = ${bind(parties[0], 'text')}`
        : `${alias}.party = ANY(${bind(parties, 'text[]')})`;
    return roles === ANY_ROLE
      ? party
      : `(${party} AND ${alias}.role = ANY(${bind(rolesOf(roles), 'smallint[]')}))`;
  });
  return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
}

/** SQL selecting the keys (block_height, sequence) of the transactions of `terms`. */
export function partyKeysSql(
  terms: readonly PartyTerm[],
  bind: (value: unknown, cast?: string) => string,
): string {
  return `SELECT block_height, sequence FROM transaction_parties WHERE ${partyCondition(terms, bind)}`;
}

/** Parties counted through their pair totals at most: the pairs probed grow as its square. */
const PAIRED_PARTIES = 16;

/**
 * The exact total of `terms` as `{count, estimate}` from the kept totals (migration
 * 1764600000000), when every term is a party in any role and they are few; undefined otherwise.
 *
 * Their transactions number the sum of their totals, less the two-party transactions counted
 * twice (a pair within the parties, kept in `party_pair_totals`), less each party's rows of
 * transactions of three parties or more, plus those transactions counted once (read from
 * `wide_transaction_parties`). Past `budget` such rows, the sum of the totals is answered, flagged as an estimate.
 * One expression of the page's statement: a probe per party, one per pair, and the wide rows.
 */
export function pairedPartyTotal(
  terms: readonly PartyTerm[],
  budget: number,
  bind: (value: unknown, cast?: string) => string,
): string | undefined {
  if (terms.length > PAIRED_PARTIES || terms.some(({ roles }) => roles !== ANY_ROLE)) {
    return undefined;
  }
  const parties = bind(
    terms.map(({ party }) => party),
    'text[]',
  );
  const limit = bind(budget, 'bigint');
  return `(SELECT CASE WHEN wide.party_rows > ${limit} THEN ARRAY[kept.total, 1]
      ELSE ARRAY[kept.total - wide.party_rows
        - (SELECT coalesce(sum(pair.count), 0) FROM party_pair_totals AS pair
            WHERE pair.low = ANY(${parties}) AND pair.high = ANY(${parties}))
        + (SELECT count(*) FROM (
            SELECT DISTINCT block_height, sequence FROM wide_transaction_parties
            WHERE party = ANY(${parties})) AS wide_transactions), 0]
    END::bigint[]
    FROM (SELECT coalesce(sum(count), 0) AS total FROM party_totals
          WHERE party = ANY(${parties})) AS kept,
      (SELECT count(*) AS party_rows FROM (
        SELECT 1 FROM wide_transaction_parties WHERE party = ANY(${parties}) LIMIT ${limit} + 1
      ) AS counted) AS wide)`;
}
