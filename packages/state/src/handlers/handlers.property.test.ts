import {
  addressFromPublicKey,
  keysFromPassphrase,
  TransactionType,
  type TransactionData,
} from '@lni/crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testMilestones } from '../../../crypto/src/networks/__fixtures__/test-milestones.js';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { handlerFor } from './registry.js';
import { senderOf } from './sender.js';
import type { LedgerState } from './transaction-handler.js';
import { TransactionRuleError } from './transaction-rule-error.js';

const PUB_KEY_HASH = 30;
const KEYS = ['a', 'b', 'c', 'd', 'e'].map((p) => keysFromPassphrase(p).publicKey.toString('hex'));
const address = (publicKey: string) => addressFromPublicKey(publicKey, PUB_KEY_HASH);

/** Five funded wallets that know their keys; nothing else. */
function genesis(): LedgerState {
  const repository = new WalletRepository();
  for (const key of KEYS) repository.update(address(key), { publicKey: key, balance: 1_000n });
  const milestone = { ...testMilestones().at(1), multiPaymentLimit: 4 };
  return { repository, milestone, height: 10, timestamp: 100, pubKeyHash: PUB_KEY_HASH };
}

const snapshot = (state: LedgerState) =>
  [...state.repository.all()]
    .filter((w) => w.balance !== 0n || w.nonce !== 0n || Object.keys(w.attributes).length > 0)
    .sort((a, b) => (a.address < b.address ? -1 : 1));

/** Every delegate's vote balance equals the weight of its voters (a brute-force sum). */
function expectVoteBalancesConsistent(state: LedgerState): void {
  const wallets = [...state.repository.all()];
  for (const delegate of wallets.filter((w) => w.attributes.delegate)) {
    const weight = wallets
      .filter((w) => w.attributes.vote === delegate.publicKey)
      .reduce((sum, w) => sum + w.balance + (w.attributes.htlc?.lockedBalance ?? 0n), 0n);
    expect(delegate.attributes.delegate?.voteBalance).toBe(weight);
  }
}

type Step = { kind: number; from: number; to: number; amount: bigint; extra: number };
const step = fc.record({
  kind: fc.integer({ min: 0, max: 6 }),
  from: fc.integer({ min: 0, max: 4 }),
  to: fc.integer({ min: 0, max: 4 }),
  amount: fc.bigInt({ min: 0n, max: 600n }),
  extra: fc.integer({ min: 0, max: 3 }),
});

/** A transaction of the step's kind from its sender, with the sender's next nonce. */
function transactionOf(s: Step, state: LedgerState): TransactionData {
  const sender = KEYS[s.from] as string;
  const target = KEYS[s.to] as string;
  const nonce = state.repository.getOrEmpty(address(sender)).nonce + 1n;
  const base = {
    version: 2 as const,
    network: PUB_KEY_HASH,
    typeGroup: 1,
    nonce,
    senderPublicKey: sender,
    fee: BigInt(s.extra * 5),
    amount: 0n,
  };
  const voted = state.repository.getOrEmpty(address(sender)).attributes.vote;
  switch (s.kind) {
    case 0:
      return {
        ...base,
        type: TransactionType.Transfer,
        amount: s.amount,
        recipientId: address(target),
      };
    case 1:
      return {
        ...base,
        type: TransactionType.DelegateRegistration,
        asset: { delegate: { username: `name${s.from}` } },
      };
    case 2:
      return {
        ...base,
        type: TransactionType.Vote,
        asset: {
          votes:
            voted && s.extra > 1
              ? [`-${voted}`, `+${target}`]
              : voted
                ? [`-${voted}`]
                : [`+${target}`],
        },
      };
    case 3:
      return {
        ...base,
        type: TransactionType.MultiPayment,
        asset: {
          payments: [
            { amount: s.amount / 2n, recipientId: address(target) },
            { amount: BigInt(s.extra), recipientId: address(KEYS[(s.to + 1) % 5] as string) },
          ],
        },
      };
    case 4:
      return { ...base, type: TransactionType.DelegateResignation };
    case 5:
      return {
        ...base,
        type: TransactionType.Ipfs,
        asset: { ipfs: `Qm${'x'.repeat(44)}${s.extra}` },
      };
    default:
      return {
        ...base,
        type: TransactionType.Transfer,
        amount: s.amount * 2n,
        recipientId: address(sender),
      };
  }
}

describe('transaction handlers (property)', () => {
  it('any sequence of applied transactions reverts, newest first, to the exact starting state', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const state = genesis();
        const start = snapshot(state);
        const applied: TransactionData[] = [];
        for (const s of steps) {
          const data = transactionOf(s, state);
          const handler = handlerFor(data);
          const before = snapshot(state);
          try {
            handler.check(data, senderOf(data, state), state);
          } catch (error) {
            expect(error).toBeInstanceOf(TransactionRuleError);
            expect(snapshot(state)).toEqual(before);
            continue;
          }
          handler.apply(data, state);
          applied.push(data);
          expectVoteBalancesConsistent(state);
        }
        for (const data of applied.reverse()) handlerFor(data).revert(data, state);
        expect(snapshot(state)).toEqual(start);
      }),
      { numRuns: 200 },
    );
  });
});
