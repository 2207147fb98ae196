import { describe, expect, it } from 'vitest';
import { addressFromPassphrase } from '../identities/address.js';
import { keysFromPassphrase } from '../identities/keys.js';
import type { Milestone } from '../networks/milestone.js';
import {
  delegateRegistration,
  htlcClaim,
  htlcLock,
  ipfs,
  multiPayment,
  multiSignature,
  transfer,
  validateTransaction,
  vote,
  type TransactionData,
} from './index.js';

const milestone: Milestone = {
  height: 1,
  activeDelegates: 51,
  blocktime: 8,
  reward: 0,
  block: { version: 0, maxTransactions: 150, maxPayload: 6_291_456 },
  epoch: '2017-03-21T13:00:00.000Z',
  fees: { staticFees: { transfer: 10_000_000 } },
  vendorFieldLength: 255,
  multiPaymentLimit: 3,
  aip11: true,
};
const network = { pubKeyHash: 30 };
const options = { network: 30, milestone };
const recipient = addressFromPassphrase('recipient', 30);
const key = (p: string) => keysFromPassphrase(p).publicKey.toString('hex');
const hash = 'ab'.repeat(32);

const validTransfer = transfer(options).recipientId(recipient).amount(5).nonce(1).sign('s').build();

/** The paths of the issues found, or [] when the transaction is valid. */
function issues(data: TransactionData, at: Milestone = milestone): string[] {
  const result = validateTransaction(data, at, network);
  // A field breaking two rules is reported twice; the tests ask which fields.
  return result.ok ? [] : [...new Set(result.errors.map((issue) => issue.path))];
}

function messageOf(data: TransactionData, path: string): string {
  const result = validateTransaction(data, milestone, network);
  if (result.ok) throw new Error('expected an issue');
  const issue = result.errors.find((candidate) => candidate.path === path);
  if (issue === undefined) throw new Error(`no issue at ${path}: ${JSON.stringify(result.errors)}`);
  return issue.message;
}

describe('validateTransaction', () => {
  it('accepts well-formed transactions of each builder, with the milestone fee as default', () => {
    expect(validTransfer.fee).toBe(10_000_000n);
    const built = [
      validTransfer,
      delegateRegistration(options).username('a.b_c!@$&9').nonce(1).sign('s').build(),
      vote(options).unvote(key('x')).vote(key('y')).nonce(1).sign('s').build(),
      ipfs(options)
        .ipfsAsset('QmR45FmbVVrixReBwJkhEKde2qwHYaQzGxu4ZoDeswuF9w')
        .nonce(1)
        .sign('s')
        .build(),
      multiPayment(options)
        .addPayment(recipient, 1)
        .addPayment(recipient, 2)
        .nonce(1)
        .sign('s')
        .build(),
      htlcLock(options)
        .recipientId(recipient)
        .amount(1)
        .nonce(1)
        .htlcLockAsset({ secretHash: hash, expiration: { type: 2, value: 100 } })
        .sign('s')
        .build(),
      htlcClaim(options)
        .fee(0)
        .htlcClaimAsset({ lockTransactionId: hash, unlockSecret: hash })
        .nonce(1)
        .sign('s')
        .build(),
      multiSignature(options)
        .multiSignatureAsset({ min: 2, publicKeys: [key('a'), key('b')] })
        .senderPublicKey(key('a'))
        .multiSign('a', 0)
        .multiSign('b', 1)
        .nonce(1)
        .sign('a')
        .build(),
    ];
    for (const data of built) expect(issues(data)).toEqual([]);
  });

  it('rejects amounts outside u64 and zero transfers, naming amount', () => {
    expect(issues({ ...validTransfer, amount: 0n })).toEqual(['amount']);
    expect(issues({ ...validTransfer, amount: 2n ** 64n })).toEqual(['amount']);
    expect(messageOf({ ...validTransfer, amount: 2n ** 64n }, 'amount')).toMatch(/between 1 and/);
  });

  it('requires a fee above zero that fits a signed 64-bit integer', () => {
    expect(issues({ ...validTransfer, fee: 0n })).toEqual(['fee']);
    expect(issues({ ...validTransfer, fee: 2n ** 63n })).toEqual(['fee']);
  });

  it('requires a recipient of this network and a valid sender key', () => {
    const foreign = addressFromPassphrase('recipient', 23);
    expect(messageOf({ ...validTransfer, recipientId: foreign }, 'recipientId')).toMatch(/network/);
    expect(issues({ ...validTransfer, senderPublicKey: `04${'00'.repeat(32)}` })).toEqual([
      'senderPublicKey',
    ]);
    expect(issues({ ...validTransfer, network: 23 })).toEqual(['network']);
  });

  it("limits the vendor field to the milestone's length and to types that carry one", () => {
    const tight = { ...milestone, vendorFieldLength: 64 };
    expect(issues({ ...validTransfer, vendorField: 'é'.repeat(32) }, tight)).toEqual([]);
    expect(issues({ ...validTransfer, vendorField: 'é'.repeat(33) }, tight)).toEqual([
      'vendorField',
    ]);
    const voted = vote(options).vote(key('y')).nonce(1).sign('s').build();
    expect(messageOf({ ...voted, vendorField: 'x' }, 'vendorField')).toMatch(/not allowed/);
  });

  it("limits multipayments to the milestone's multiPaymentLimit and at least two", () => {
    const pay = multiPayment(options).nonce(1);
    for (let i = 0; i < 4; i++) pay.addPayment(recipient, 1);
    expect(issues(pay.sign('s').build())).toEqual(['asset.payments']);
    const one = multiPayment(options).addPayment(recipient, 1).nonce(1).sign('s').build();
    expect(issues(one)).toEqual(['asset.payments']);
  });

  it('checks the delegate username format', () => {
    for (const username of ['Upper', 'has space', 'a'.repeat(21), '', 'tab\t']) {
      const data = delegateRegistration(options).username(username).nonce(1).sign('s').build();
      expect(issues(data)).toEqual(['asset.delegate.username']);
    }
  });

  it('checks votes: a sign, a valid key, one or two of them', () => {
    const voted = vote(options).vote(key('y')).nonce(1).sign('s').build();
    expect(issues({ ...voted, asset: { votes: [`*${key('y')}`] } })).toEqual(['asset.votes[0]']);
    expect(issues({ ...voted, asset: { votes: [`+02${'00'.repeat(32)}`] } })).toEqual([
      'asset.votes[0]',
    ]);
    const three = [`+${key('a')}`, `-${key('b')}`, `+${key('c')}`];
    expect(issues({ ...voted, asset: { votes: three } })).toEqual(['asset.votes']);
  });

  it('checks the ipfs multihash', () => {
    const data = ipfs(options)
      .ipfsAsset('QmR45FmbVVrixReBwJkhEKde2qwHYaQzGxu4ZoDeswuF9w')
      .nonce(1)
      .sign('s')
      .build();
    expect(issues({ ...data, asset: { ipfs: 'Qm0OIl' } })).toEqual(['asset.ipfs']);
    expect(issues({ ...data, asset: { ipfs: '2' } })).toEqual(['asset.ipfs']);
  });

  it('checks HTLC secret hash, expiration type and that claims are free', () => {
    const lock = htlcLock(options)
      .recipientId(recipient)
      .amount(1)
      .nonce(1)
      .htlcLockAsset({ secretHash: hash, expiration: { type: 1, value: 9 } })
      .sign('s')
      .build();
    const badHash = { lock: { secretHash: hash.slice(2), expiration: { type: 1, value: 9 } } };
    expect(issues({ ...lock, asset: badHash })).toEqual(['asset.lock.secretHash']);
    const badType = { lock: { secretHash: hash, expiration: { type: 3, value: 9 } } };
    expect(issues({ ...lock, asset: badType as never })).toEqual(['asset.lock.expiration.type']);
    const claim = htlcClaim(options)
      .fee(0)
      .nonce(1)
      .htlcClaimAsset({ lockTransactionId: hash, unlockSecret: hash })
      .sign('s')
      .build();
    const badSecret = { claim: { lockTransactionId: hash, unlockSecret: 'zz'.repeat(32) } };
    expect(issues({ ...claim, asset: badSecret })).toEqual(['asset.claim.unlockSecret']);
    expect(
      issues({
        ...claim,
        fee: 1n,
        asset: { claim: { lockTransactionId: hash, unlockSecret: hash } },
      }),
    ).toEqual(['fee']);
  });

  it('checks the multisignature asset and its signature count', () => {
    const data = multiSignature(options)
      .multiSignatureAsset({ min: 3, publicKeys: [key('a'), key('b')] })
      .senderPublicKey(key('a'))
      .multiSign('a', 0)
      .multiSign('b', 1)
      .nonce(1)
      .sign('a')
      .build();
    expect(issues(data)).toContain('asset.multiSignature.min');
  });

  it('allows fee 0 and zero-amount transfers only in the genesis block', () => {
    const free = transfer(options)
      .recipientId(recipient)
      .amount(0)
      .fee(0)
      .nonce(1)
      .sign('s')
      .build();
    expect(issues(free).sort()).toEqual(['amount', 'fee']);
    expect(validateTransaction(free, milestone, network, { genesis: true }).ok).toBe(true);
  });

  it('accepts only the version the milestone allows, and reports every issue at once', () => {
    expect(issues(validTransfer, { ...milestone, aip11: false })).toEqual(['version']);
    expect(issues({ ...validTransfer, fee: 0n, amount: 0n }).sort()).toEqual(['amount', 'fee']);
    expect(issues({ ...validTransfer, type: 99 })).toEqual(['type']);
    const legacyMultiSignature = { ...validTransfer, type: 4, version: 1 as const };
    expect(issues(legacyMultiSignature, { ...milestone, aip11: false })).toEqual(['version']);
  });
});
