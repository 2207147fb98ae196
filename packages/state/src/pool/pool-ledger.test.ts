import { describe, expect, it } from 'vitest';
import type { TransactionData } from '@lni/crypto';
import {
  addressOf,
  ALICE,
  BOB,
  keysOf,
  nextBlock,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import type { FullBlock } from '../blocks/block-store.js';
import type { PoolEntry } from './pool-entry.js';
import { checkNotExpired } from './pool-ledger.js';
import { ledgerWorld, poolNetwork } from './__fixtures__/pool-world.js';

const alice = addressOf(ALICE);
const pooled = (tx: TransactionData): PoolEntry => ({
  tx,
  id: tx.id as string,
  sender: alice,
  bytes: Buffer.alloc(0),
  feePerByte: 1,
  addedAt: 0,
});

describe('PoolLedger', () => {
  it('judges for the block after the tip, with signatures already verified', () => {
    const { ledger, processor } = ledgerWorld();
    const tip = processor.lastBlock as FullBlock;
    expect(ledger.nextBlock()).toMatchObject({
      height: tip.height + 1,
      timestamp: tip.timestamp,
      verifySignatures: false,
      enforceStaticFees: false,
    });
  });

  it('undoes whatever a trial changed on the wallets', () => {
    const { ledger, wallets } = ledgerWorld();
    const before = wallets.get(alice);
    const nonce = ledger.trial(() => {
      ledger.applyPending(pooled(transferOf(ALICE, addressOf(BOB), 5n, 1n)), ledger.nextBlock());
      return wallets.get(alice)?.nonce;
    });
    expect(nonce).toBe(1n);
    expect(wallets.get(alice)).toBe(before);
  });

  it('passes over a pooled transaction that a block being written already applied', () => {
    const { ledger, processor, wallets } = ledgerWorld();
    const first = transferOf(ALICE, addressOf(BOB), 5n, 1n);
    processor.applyToState(nextBlock(poolNetwork, processor.lastBlock as FullBlock, [first]));
    const balance = wallets.get(alice)?.balance;
    ledger.trial(() => {
      ledger.applyPending(pooled(first), ledger.nextBlock());
      expect(wallets.get(alice)?.balance).toBe(balance);
    });
  });

  it("reads the sender's registrations now, and none for a key that is no public key", () => {
    const { ledger, wallets } = ledgerWorld();
    const second = keysOf('a second key').publicKey.toString('hex');
    wallets.update(alice, { attributes: { secondPublicKey: second } });
    expect(ledger.registrationsOf(keysOf(ALICE).publicKey.toString('hex'))).toEqual({
      secondPublicKey: second,
    });
    expect(ledger.registrationsOf('not a key')).toEqual({});
  });

  it('refuses a transfer whose expiration height has come, not one without expiration', () => {
    const tx = transferOf(ALICE, addressOf(BOB), 5n, 1n);
    expect(() => checkNotExpired({ ...tx, expiration: 7 }, 7)).toThrow(/height 7 has passed/);
    expect(() => checkNotExpired({ ...tx, expiration: 8 }, 7)).not.toThrow();
    expect(() => checkNotExpired({ ...tx, expiration: 0 }, 7)).not.toThrow();
  });
});
