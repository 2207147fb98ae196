import {
  addressFromPublicKey,
  HtlcLockExpirationType,
  keysFromPassphrase,
  multiSignatureAddress,
  TransactionType,
  type TransactionData,
} from '@lni/crypto';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testMilestones } from '../../../crypto/src/networks/__fixtures__/test-milestones.js';
import { WalletRepository } from '../wallets/wallet-repository.js';
import { handlerFor } from './registry.js';
import { senderOf } from './sender.js';
import type { LedgerState } from './transaction-handler.js';
import { TransactionRuleError } from './transaction-rule-error.js';

const PUB_KEY_HASH = 30;
const keyOf = (passphrase: string) => keysFromPassphrase(passphrase).publicKey.toString('hex');
const SENDER = keyOf('sender');
const DELEGATE = keyOf('delegate');
const OTHER = keyOf('other');
const address = (publicKey: string) => addressFromPublicKey(publicKey, PUB_KEY_HASH);
const RECIPIENT = address(OTHER);

function ledger(): LedgerState {
  const repository = new WalletRepository();
  repository.update(address(SENDER), {
    publicKey: SENDER,
    balance: 1_000_000n,
    nonce: 3n,
    attributes: { vote: DELEGATE },
  });
  repository.update(address(DELEGATE), {
    publicKey: DELEGATE,
    balance: 500n,
    attributes: {
      delegate: {
        username: 'boss',
        voteBalance: 1_000_000n,
        forgedFees: 0n,
        forgedRewards: 0n,
        producedBlocks: 0,
      },
    },
  });
  const milestone = { ...testMilestones().at(1), htlcEnabled: true, multiPaymentLimit: 3 };
  return { repository, milestone, height: 100, timestamp: 5_000, pubKeyHash: PUB_KEY_HASH };
}

const tx = (type: TransactionType, extra: Partial<TransactionData> = {}): TransactionData => ({
  version: 2,
  network: PUB_KEY_HASH,
  typeGroup: 1,
  type,
  nonce: 4n,
  senderPublicKey: SENDER,
  fee: 100n,
  amount: 0n,
  id: `${type}`.padStart(64, 'f'),
  ...extra,
});

const VALID: Record<string, TransactionData> = {
  transfer: tx(TransactionType.Transfer, { amount: 250n, recipientId: RECIPIENT }),
  secondSignature: tx(TransactionType.SecondSignature, {
    asset: { signature: { publicKey: OTHER } },
  }),
  delegateRegistration: tx(TransactionType.DelegateRegistration, {
    asset: { delegate: { username: 'newbie_1' } },
  }),
  unvote: tx(TransactionType.Vote, { asset: { votes: [`-${DELEGATE}`] } }),
  multiSignature: tx(TransactionType.MultiSignature, {
    asset: { multiSignature: { min: 2, publicKeys: [SENDER, OTHER, DELEGATE] } },
    signatures: ['00', '01', '02'],
  }),
  ipfs: tx(TransactionType.Ipfs, {
    asset: { ipfs: 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG' },
  }),
  multiPayment: tx(TransactionType.MultiPayment, {
    asset: {
      payments: [
        { amount: 10n, recipientId: RECIPIENT },
        { amount: 20n, recipientId: address(DELEGATE) },
      ],
    },
  }),
  htlcLock: tx(TransactionType.HtlcLock, {
    amount: 700n,
    recipientId: RECIPIENT,
    asset: {
      lock: {
        secretHash: 'ab'.repeat(32),
        expiration: { type: HtlcLockExpirationType.BlockHeight, value: 200 },
      },
    },
  }),
};

/** Every wallet that holds something, as comparable values. */
const holdings = (state: LedgerState) =>
  [...state.repository.all()]
    .filter(
      (w) =>
        w.balance !== 0n ||
        w.nonce !== 0n ||
        w.publicKey !== undefined ||
        Object.keys(w.attributes).length > 0,
    )
    .sort((a, b) => (a.address < b.address ? -1 : 1));

const apply = (state: LedgerState, data: TransactionData) => {
  const handler = handlerFor(data);
  handler.check(data, senderOf(data, state), state);
  handler.apply(data, state);
};

const votesOf = (state: LedgerState) =>
  state.repository.byUsername('boss')?.attributes.delegate?.voteBalance;

describe('transaction handlers', () => {
  it.each(Object.entries(VALID))(
    '%s: apply then revert returns the exact previous state',
    (_name, data) => {
      const state = ledger();
      const before = holdings(state);
      apply(state, data);
      expect(holdings(state)).not.toEqual(before);
      expect(state.repository.getOrEmpty(address(SENDER)).nonce).toBe(4n);
      handlerFor(data).revert(data, state);
      expect(holdings(state)).toEqual(before);
    },
  );

  it.each(Object.entries(VALID))(
    '%s as version 1: advances the nonce by one (ARK 2.7/3.x), revert takes it back',
    (_name, data) => {
      const state = ledger();
      const before = holdings(state);
      const legacy: TransactionData = { ...data, version: 1, nonce: 0n, timestamp: 0 };
      apply(state, legacy);
      expect(state.repository.getOrEmpty(address(SENDER)).nonce).toBe(4n);
      handlerFor(legacy).revert(legacy, state);
      expect(holdings(state)).toEqual(before);
    },
  );

  it('counts version-1 transactions in the nonce the next version-2 one must carry', () => {
    const state = ledger();
    const legacy: TransactionData = {
      ...(VALID.transfer as TransactionData),
      version: 1,
      nonce: 0n,
      timestamp: 0,
    };
    apply(state, legacy);
    apply(state, legacy);
    expect(() => apply(state, VALID.transfer as TransactionData)).toThrow(
      /nonce: expected 6, got 4/,
    );
    apply(state, { ...(VALID.transfer as TransactionData), nonce: 6n });
    expect(state.repository.getOrEmpty(address(SENDER)).nonce).toBe(6n);
  });

  it('keeps the voted delegate in step with the sender: fees, transfers, HTLC locks', () => {
    const state = ledger();
    apply(state, VALID.transfer as TransactionData);
    expect(votesOf(state)).toBe(1_000_000n - 350n);
    apply(state, { ...(VALID.htlcLock as TransactionData), nonce: 5n });
    // The locked 700 still counts; only the fee leaves the vote.
    expect(votesOf(state)).toBe(1_000_000n - 350n - 100n);
    apply(state, { ...(VALID.unvote as TransactionData), nonce: 6n });
    expect(votesOf(state)).toBe(0n);
  });

  it('registers the multisignature on the shared address of the keys', () => {
    const state = ledger();
    apply(state, VALID.multiSignature as TransactionData);
    const shared = multiSignatureAddress(2, [SENDER, OTHER, DELEGATE], PUB_KEY_HASH);
    expect(state.repository.get(shared)?.attributes.multiSignature?.min).toBe(2);
  });

  const refusals: [string, (state: LedgerState) => TransactionData, string][] = [
    [
      'a replayed nonce',
      () => ({ ...(VALID.transfer as TransactionData), nonce: 3n }),
      'ERR_TX_NONCE',
    ],
    [
      'a double spend',
      () => ({ ...(VALID.transfer as TransactionData), amount: 999_950n }),
      'ERR_TX_INSUFFICIENT_BALANCE',
    ],
    [
      'a vote for an unknown delegate',
      (state) => {
        state.repository.update(address(SENDER), { attributes: { vote: undefined } });
        return tx(TransactionType.Vote, { asset: { votes: [`+${OTHER}`] } });
      },
      'ERR_TX_VOTE',
    ],
    [
      'a second vote',
      () => tx(TransactionType.Vote, { asset: { votes: [`+${DELEGATE}`] } }),
      'ERR_TX_VOTE',
    ],
    [
      'an unvote of another delegate',
      () => tx(TransactionType.Vote, { asset: { votes: [`-${OTHER}`] } }),
      'ERR_TX_VOTE',
    ],
    [
      'a resignation by a non-delegate',
      () => tx(TransactionType.DelegateResignation),
      'ERR_TX_NOT_A_DELEGATE',
    ],
    [
      'a taken username',
      () => tx(TransactionType.DelegateRegistration, { asset: { delegate: { username: 'boss' } } }),
      'ERR_TX_USERNAME_TAKEN',
    ],
    [
      'a malformed username',
      () =>
        tx(TransactionType.DelegateRegistration, { asset: { delegate: { username: 'Big Boss' } } }),
      'ERR_TX_USERNAME_INVALID',
    ],
    [
      'a missing second signature',
      (state) => {
        state.repository.update(address(SENDER), { attributes: { secondPublicKey: OTHER } });
        return VALID.transfer as TransactionData;
      },
      'ERR_TX_SECOND_SIGNATURE',
    ],
    [
      'an expired transfer',
      () => ({ ...(VALID.transfer as TransactionData), expiration: 100 }),
      'ERR_TX_EXPIRED',
    ],
    [
      'too many payments',
      () =>
        tx(TransactionType.MultiPayment, {
          asset: {
            payments: Array.from({ length: 4 }, () => ({ amount: 1n, recipientId: RECIPIENT })),
          },
        }),
      'ERR_TX_MULTIPAYMENT_LIMIT',
    ],
    [
      'an HTLC lock that has already expired',
      () =>
        tx(TransactionType.HtlcLock, {
          amount: 1n,
          recipientId: RECIPIENT,
          asset: {
            lock: {
              secretHash: 'ab'.repeat(32),
              expiration: { type: HtlcLockExpirationType.EpochTimestamp, value: 4_000 },
            },
          },
        }),
      'ERR_TX_HTLC_EXPIRATION',
    ],
    [
      'an unsupported type group',
      () => ({ ...tx(TransactionType.Transfer), typeGroup: 2 }),
      'ERR_TX_UNSUPPORTED_TYPE',
    ],
  ];

  it.each(refusals)('refuses %s naming the rule and changes nothing', (_name, make, code) => {
    const state = ledger();
    const data = make(state);
    const before = holdings(state);
    let error: unknown;
    try {
      apply(state, data);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TransactionRuleError);
    expect((error as TransactionRuleError).code).toBe(code);
    expect(holdings(state)).toEqual(before);
  });

  it('requires the static fee only where asked (the pool), scaled per key for multisignature', () => {
    const state = { ...ledger(), enforceStaticFees: true };
    state.repository.update(address(SENDER), { balance: 100_000_000n });
    const data = VALID.transfer as TransactionData;
    expect(() => apply(state, data)).toThrow(/fee: expected the static fee 10000000, got 100/);
    apply(state, { ...data, fee: 10_000_000n });
    expect(state.repository.get(address(SENDER))?.balance).toBe(89_999_750n);
    const multi = {
      ...state,
      milestone: {
        ...state.milestone,
        fees: { staticFees: { multiSignature: 500n as unknown as number } },
      },
    };
    expect(() =>
      apply(multi, { ...(VALID.multiSignature as TransactionData), nonce: 5n, fee: 500n }),
    ).toThrow(/static fee 2000/);
  });

  describe('HTLC claim and refund', () => {
    const SECRET = '11'.repeat(32);
    const secretHash = createHash('sha256').update(Buffer.from(SECRET, 'hex')).digest('hex');
    const lock = (expiration: number) =>
      tx(TransactionType.HtlcLock, {
        amount: 700n,
        recipientId: RECIPIENT,
        id: 'aa'.repeat(32),
        asset: {
          lock: {
            secretHash,
            expiration: { type: HtlcLockExpirationType.BlockHeight, value: expiration },
          },
        },
      });
    const lockedLedger = (expiration: number) => {
      const state = ledger();
      apply(state, lock(expiration));
      // The claimer is known by its key (a public key, once learnt, is not unlearnt by a revert).
      state.repository.update(RECIPIENT, { publicKey: OTHER });
      const stored = { transaction: lock(expiration), timestamp: state.timestamp };
      return {
        ...state,
        lockTransaction: (id: string) => (id === 'aa'.repeat(32) ? stored : undefined),
      };
    };
    const claim = (secret: string) =>
      tx(TransactionType.HtlcClaim, {
        nonce: 1n,
        senderPublicKey: OTHER,
        fee: 0n,
        asset: { claim: { lockTransactionId: 'aa'.repeat(32), unlockSecret: secret } },
      });
    const refund = tx(TransactionType.HtlcRefund, {
      nonce: 5n,
      fee: 0n,
      asset: { refund: { lockTransactionId: 'aa'.repeat(32) } },
    });

    it('claim pays the recipient, closes the lock, and reverts exactly', () => {
      const state = lockedLedger(200);
      const before = holdings(state);
      apply(state, claim(SECRET));
      expect(state.repository.get(RECIPIENT)?.balance).toBe(700n);
      expect(state.repository.get(address(SENDER))?.attributes.htlc).toBeUndefined();
      expect(votesOf(state)).toBe(1_000_000n - 100n - 700n);
      handlerFor(claim(SECRET)).revert(claim(SECRET), state);
      expect(holdings(state)).toEqual(before);
    });

    it('refund returns an expired lock to its owner and reverts exactly', () => {
      const state = { ...lockedLedger(150), height: 150 };
      const before = holdings(state);
      apply(state, refund);
      expect(state.repository.get(address(SENDER))?.balance).toBe(1_000_000n - 100n);
      handlerFor(refund).revert(refund, state);
      expect(holdings(state)).toEqual(before);
    });

    it.each([
      ['a wrong secret', () => lockedLedger(200), claim('22'.repeat(32)), 'ERR_TX_HTLC_SECRET'],
      [
        'a claim after expiry',
        () => ({ ...lockedLedger(150), height: 150 }),
        claim(SECRET),
        'ERR_TX_HTLC_EXPIRATION',
      ],
      ['a refund before expiry', () => lockedLedger(200), refund, 'ERR_TX_HTLC_NOT_EXPIRED'],
      ['an unknown lock', () => ledger(), claim(SECRET), 'ERR_TX_HTLC_LOCK_NOT_FOUND'],
    ])('refuses %s', (_name, make, data, code) => {
      const state = make();
      const before = holdings(state);
      expect(() => apply(state, data)).toThrow(TransactionRuleError);
      try {
        apply(state, data);
      } catch (error) {
        expect((error as TransactionRuleError).code).toBe(code);
      }
      expect(holdings(state)).toEqual(before);
    });
  });
});
