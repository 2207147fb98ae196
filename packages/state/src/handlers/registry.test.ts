import { TransactionTypeGroup, transactionTypes, type TransactionData } from '@lni/crypto';
import { describe, expect, it } from 'vitest';
import { handlerFor, HandlerRegistryError, TransactionHandlers } from './registry.js';
import type { TransactionHandler } from './transaction-handler.js';
import { TransactionRuleError } from './transaction-rule-error.js';

const ofType = (typeGroup: number, type: number) => ({ typeGroup, type }) as TransactionData;

/** A handler per row of crypto's table, each one told apart. */
const handlersByName = (): Record<string, TransactionHandler> =>
  Object.fromEntries(
    transactionTypes().map((row) => [
      row.name,
      { check: () => undefined, apply: () => undefined, revert: () => undefined },
    ]),
  );

describe("state's transaction handlers, keyed by crypto's transaction-type table", () => {
  it('give every type of the table its own handler', () => {
    const rows = transactionTypes();
    expect(rows.length).toBeGreaterThanOrEqual(11);
    const handlers = rows.map((row) => handlerFor(ofType(row.typeGroup, row.type)));
    expect(new Set(handlers).size).toBe(rows.length);
  });

  it('refuse a transaction of a type outside the table as a ledger rule', () => {
    for (const tx of [ofType(TransactionTypeGroup.Core, 11), ofType(2, 0)]) {
      expect(() => handlerFor(tx)).toThrow(TransactionRuleError);
      expect(() => handlerFor(tx)).toThrow(/has no handler/);
    }
  });

  it('stop start-up when a type of the table has no handler, naming the type', () => {
    const { Ipfs: _ipfs, HtlcClaim: _claim, ...incomplete } = handlersByName();
    const build = () => new TransactionHandlers(incomplete);
    expect(build).toThrow(HandlerRegistryError);
    expect(build).toThrow(
      'state has no handler for Ipfs (group 1, type 5), HtlcClaim (group 1, type 9)',
    );
  });

  it('stop start-up on a handler for a type the table does not list', () => {
    const build = () =>
      new TransactionHandlers({ ...handlersByName(), Transfr: handlerFor(ofType(1, 0)) });
    expect(build).toThrow(HandlerRegistryError);
    expect(build).toThrow(/Transfr, which the transaction-type table does not list/);
  });

  it('hand each row its own handler', () => {
    const byName = handlersByName();
    const handlers = new TransactionHandlers(byName);
    for (const row of transactionTypes()) {
      expect(handlers.for(ofType(row.typeGroup, row.type))).toBe(byName[row.name]);
    }
  });
});
