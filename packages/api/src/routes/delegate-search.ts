import Boom from '@hapi/boom';
import type { FieldValue } from '../query/fields.js';
import { ownEntry } from '../query/own-entry.js';
import type { FieldCondition, Ordering, ResourceQuery } from '../query/resource-query.js';
import type { WalletSearch } from '@lni/state/contracts';

/**
 * Delegate fields the ledger does not index itself, because they are functions of indexed ones
 * and of values only the API knows: approval of votes and the supply, the unix and human
 * times of the epoch time. Conditions and orderings on them become conditions on the source.
 */
export function delegateSearch(
  query: ResourceQuery,
  context: { readonly supply: bigint; readonly epochStart: string },
): WalletSearch {
  const epochStartUnix = Math.floor(new Date(context.epochStart).getTime() / 1000);
  const conditions = query.conditions.map((condition) =>
    translate(condition, context.supply, epochStartUnix),
  );
  const orderBy = query.orderBy.map((ordering): Ordering => ({
    ...ordering,
    field: ownEntry(SOURCE_FIELD, ordering.field) ?? ordering.field,
  }));
  return {
    conditions,
    orderBy,
    offset: query.offset,
    limit: query.limit,
    ...(query.after !== undefined && { after: query.after }),
  };
}

const SOURCE_FIELD: Readonly<Record<string, string>> = {
  'production.approval': 'votes',
  'blocks.last.timestamp.unix': 'blocks.last.timestamp.epoch',
  'blocks.last.timestamp.human': 'blocks.last.timestamp.epoch',
};

function translate(
  condition: FieldCondition,
  supply: bigint,
  epochStartUnix: number,
): FieldCondition {
  switch (condition.field) {
    case 'production.approval':
      return approvalToVotes(condition, supply);
    case 'blocks.last.timestamp.unix':
      return mapValues(
        condition,
        'blocks.last.timestamp.epoch',
        (value) => Number(value) - epochStartUnix,
      );
    case 'blocks.last.timestamp.human':
      return mapValues(condition, 'blocks.last.timestamp.epoch', (value) => {
        const ms = Date.parse(String(value));
        if (Number.isNaN(ms)) {
          throw Boom.badData(
            `"blocks.last.timestamp.human" must be an ISO 8601 time, not '${String(value).slice(0, 80)}'`,
          );
        }
        return ms / 1000 - epochStartUnix;
      });
    default:
      return condition;
  }
}

function mapValues(
  condition: FieldCondition,
  field: string,
  map: (value: FieldValue) => number,
): FieldCondition {
  if (condition.kind === 'in') return { kind: 'in', field, values: condition.values.map(map) };
  return {
    kind: 'range',
    field,
    ...(condition.from !== undefined && { from: map(condition.from) }),
    ...(condition.to !== undefined && { to: map(condition.to) }),
  };
}

// Approval is votes / supply in percent rounded half up to 2 decimals (basis points bp):
// approval = bp/100 exactly when (2bp - 1) * supply / 20000 <= votes < (2bp + 1) * supply / 20000.
const ceilDiv = (a: bigint, b: bigint): bigint => (a <= 0n ? 0n : (a + b - 1n) / b);
const lowestVotes = (bp: bigint, supply: bigint): bigint =>
  ceilDiv((2n * bp - 1n) * supply, 20_000n);
const highestVotes = (bp: bigint, supply: bigint): bigint =>
  ceilDiv((2n * bp + 1n) * supply, 20_000n) - 1n;
const basisPoints = (value: FieldValue): bigint => BigInt(Math.round(Number(value) * 100));

function approvalToVotes(condition: FieldCondition, supply: bigint): FieldCondition {
  if (condition.kind === 'in') {
    if (condition.values.length !== 1) {
      throw Boom.badData(
        '"production.approval" takes one value or a range (.from/.to), not a list',
      );
    }
    const bp = basisPoints(condition.values[0] as FieldValue);
    return {
      kind: 'range',
      field: 'votes',
      from: lowestVotes(bp, supply),
      to: highestVotes(bp, supply),
    };
  }
  return {
    kind: 'range',
    field: 'votes',
    ...(condition.from !== undefined && { from: lowestVotes(basisPoints(condition.from), supply) }),
    ...(condition.to !== undefined && { to: highestVotes(basisPoints(condition.to), supply) }),
  };
}
