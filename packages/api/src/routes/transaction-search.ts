import type { Criteria, OrderBy, SearchQuery } from '@lni/database';
import type { LedgerReader } from '@lni/state/contracts';
import type { FieldValue } from '../query/fields.js';
import { ownEntry } from '../query/own-entry.js';
import type { FieldCondition, ResourceQuery } from '../query/resource-query.js';

/**
 * Resource fields that are stored under another name or in another form. `sender` is an
 * address, stored as the sender's public key; unix times are epoch times moved by the epoch.
 */
const COLUMN: Readonly<Record<string, string>> = {
  recipient: 'recipientId',
  'timestamp.epoch': 'timestamp',
  'timestamp.unix': 'timestamp',
  previous: 'previousBlock',
  'forged.reward': 'reward',
  'forged.fee': 'totalFee',
  'forged.amount': 'totalAmount',
  'payload.hash': 'payloadHash',
  'payload.length': 'payloadLength',
  'generator.publicKey': 'generatorPublicKey',
  transactions: 'numberOfTransactions',
};

export interface SearchContext {
  readonly ledger: LedgerReader;
  /** Further conditions of the route, such as the wallet of /wallets/{id}/transactions. */
  readonly scope?: readonly Criteria[];
  /** The `address` parameter of GET /transactions: sender, recipient or multipayment recipient. */
  readonly addresses?: readonly string[];
}

/**
 * Turns a parsed transactions or blocks query into the database's criteria tree (after asking
 * the ledger for the public keys of the addresses it names).
 */
export async function toSearchQuery(
  query: ResourceQuery,
  context: SearchContext,
): Promise<SearchQuery> {
  const epochStartUnix = Math.floor(
    new Date(context.ledger.chainContext().epochStart).getTime() / 1000,
  );
  const all: Criteria[] = [...(context.scope ?? [])];
  for (const condition of query.conditions) {
    all.push(await criterion(condition, context, epochStartUnix));
  }
  if (context.addresses?.length) {
    all.push({
      or: await Promise.all(
        context.addresses.map((address) => addressCriterion(address, context.ledger)),
      ),
    });
  }
  const orderBy: OrderBy[] = query.orderBy.map(({ field, direction }) => ({
    field: ownEntry(COLUMN, field) ?? field,
    direction,
  }));
  return {
    ...(all.length > 0 && { criteria: { and: all } }),
    orderBy,
    limit: query.limit,
    // A cursor gives the position; `page` then only numbers the page.
    offset: query.after ? 0 : query.offset,
    ...(query.after && { after: query.after }),
  };
}

/** Transactions sent by, sent to or paying an address. */
export async function addressCriterion(address: string, ledger: LedgerReader): Promise<Criteria> {
  const publicKey = (await ledger.findWallet(address))?.publicKey;
  return { address, ...(publicKey !== undefined && { senderPublicKeys: [publicKey] }) };
}

/** Transactions sent by a wallet: an address that never signed sent nothing. */
export async function senderCriterion(address: string, ledger: LedgerReader): Promise<Criteria> {
  const publicKey = (await ledger.findWallet(address))?.publicKey;
  return { field: 'senderPublicKey', in: publicKey === undefined ? [] : [publicKey] };
}

async function criterion(
  condition: FieldCondition,
  context: SearchContext,
  epochStartUnix: number,
): Promise<Criteria> {
  if (condition.field === 'sender') {
    const values = condition.kind === 'in' ? condition.values : [];
    return {
      or: await Promise.all(
        values.map((address) => senderCriterion(String(address), context.ledger)),
      ),
    };
  }
  const field = ownEntry(COLUMN, condition.field) ?? condition.field;
  const shift = (value: FieldValue): FieldValue =>
    condition.field === 'timestamp.unix' ? Number(value) - epochStartUnix : value;
  if (condition.kind === 'in') return { field, in: condition.values.map(shift) };
  return {
    field,
    ...(condition.from !== undefined && { from: shift(condition.from) }),
    ...(condition.to !== undefined && { to: shift(condition.to) }),
  };
}
