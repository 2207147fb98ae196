import { describe, expect, it } from 'vitest';
import { blockResource } from './block.js';
import { approvalOf, delegateResource } from './delegate.js';
import type { WalletView } from '@lni/state/contracts';
import { timestampOf } from './timestamp.js';
import { transactionResource } from './transaction.js';
import { walletResource } from './wallet.js';

const epochStart = '2017-03-21T13:00:00.000Z';
const publicKey = '02' + 'ab'.repeat(32);

const delegateWallet = (delegate: Partial<NonNullable<WalletView['attributes']['delegate']>>) =>
  ({
    address: 'AJWRd23HNEhPLkK1ymMnwnDBX2a7QBZqff',
    publicKey,
    balance: 123_456_789_012_345_678_901n,
    nonce: 7n,
    attributes: {
      delegate: {
        username: 'genesis_1',
        voteBalance: 2_500_000_000_000_000n,
        forgedFees: 10n,
        forgedRewards: 90_000_000_000_000_000_000n,
        producedBlocks: 3,
        rank: 1,
        ...delegate,
      },
    },
  }) satisfies WalletView;

describe('the delegate resource', () => {
  it('writes amounts as decimal strings and forged.total as fees + rewards, without precision loss', () => {
    const resource = delegateResource(delegateWallet({}), {
      supply: 12_500_000_000_000_000n,
      epochStart,
    });
    expect(resource.votes).toBe('2500000000000000');
    expect(resource.forged).toEqual({
      fees: '10',
      rewards: '90000000000000000000',
      total: '90000000000000000010',
    });
    expect(resource.production.approval).toBe(20);
    expect(resource.production.productivity).toBe(100);
    expect(resource.isResigned).toBe(false);
  });

  it('leaves blocks.last out when the delegate forged nothing, and gives its times when it did', () => {
    const none = delegateResource(delegateWallet({ producedBlocks: 0 }), {
      supply: 1n,
      epochStart,
    });
    expect(none.blocks).toEqual({ produced: 0, missed: 0 });
    expect('last' in none.blocks).toBe(false);

    const forged = delegateResource(
      delegateWallet({ lastBlock: { id: '123', height: 9, timestamp: 8 } }),
      { supply: 1n, epochStart },
    );
    expect(forged.blocks.last).toEqual({
      id: '123',
      height: 9,
      timestamp: { epoch: 8, unix: 1490101208, human: '2017-03-21T13:00:08.000Z' },
    });
  });

  it('gives blocks.missed and productivity as produced / (produced + missed) in percent, two decimals', () => {
    const context = { supply: 1n, epochStart };
    const some = delegateResource(delegateWallet({ producedBlocks: 2, missedBlocks: 1 }), context);
    expect(some.blocks.missed).toBe(1);
    expect(some.production.productivity).toBe(66.67);
    const never = delegateResource(delegateWallet({ producedBlocks: 0 }), context);
    expect(never.production.productivity).toBe(0);
  });

  it('shows a resigned delegate as isResigned', () => {
    const resource = delegateResource(delegateWallet({ resigned: true, rank: undefined }), {
      supply: 1n,
      epochStart,
    });
    expect(resource.isResigned).toBe(true);
    expect(resource.rank).toBeNull();
  });

  it('rounds approval half up to two decimals as ARK 3.0 does', () => {
    expect(approvalOf(1n, 3n)).toBe(33.33);
    expect(approvalOf(2n, 3n)).toBe(66.67);
    expect(approvalOf(1n, 80_000n)).toBe(0);
    expect(approvalOf(1n, 20_000n)).toBe(0.01);
    expect(approvalOf(1n, 20_001n)).toBe(0);
    expect(approvalOf(5n, 0n)).toBe(0);
  });
});

describe('the wallet resource', () => {
  it('has no isDelegate and writes every amount, also nested in attributes, as a string', () => {
    const resource = walletResource(delegateWallet({}));
    expect(resource).not.toHaveProperty('isDelegate');
    expect(resource.balance).toBe('123456789012345678901');
    expect(resource.nonce).toBe('7');
    expect(resource.attributes).toMatchObject({
      delegate: { username: 'genesis_1', voteBalance: '2500000000000000', producedBlocks: 3 },
    });
    expect(JSON.parse(JSON.stringify(resource))).toEqual(resource);
  });

  it('gives a wallet that never signed no public key at all (ARK 3 omits it)', () => {
    const resource = walletResource({
      address: 'AJWRd23HNEhPLkK1ymMnwnDBX2a7QBZqff',
      balance: 1n,
      nonce: 0n,
      attributes: {},
    });
    expect(resource).not.toHaveProperty('publicKey');
    expect(resource.attributes).toEqual({});
  });
});

describe('transactions and blocks', () => {
  const context = {
    height: 100,
    epochStart,
    addressOf: (key: string) => `address-of-${key.slice(0, 4)}`,
    usernameOf: (key: string) => (key === publicKey ? 'genesis_1' : undefined),
  };

  it('counts confirmations from the last block and derives the sender address', () => {
    const resource = transactionResource(
      {
        id: 'aa'.repeat(32),
        blockId: '42',
        blockHeight: 91,
        version: 2,
        type: 0,
        typeGroup: 1,
        nonce: 3n,
        senderPublicKey: publicKey,
        recipientId: 'ARecipient',
        amount: 18_446_744_073_709_551_615n,
        fee: 10_000_000n,
        vendorField: null,
        signature: 'cd'.repeat(64),
        timestamp: 16,
      },
      context,
    );
    expect(resource).toMatchObject({
      sender: 'address-of-02ab',
      recipient: 'ARecipient',
      amount: '18446744073709551615',
      confirmations: 10,
      nonce: '3',
      timestamp: { epoch: 16, human: '2017-03-21T13:00:16.000Z' },
    });
    expect(resource).not.toHaveProperty('vendorField');
  });

  it('gives a block its forged totals, generator and payload', () => {
    const resource = blockResource(
      {
        id: '99',
        version: 0,
        height: 100,
        previousBlock: '98',
        timestamp: 800,
        numberOfTransactions: 2,
        totalAmount: 5n,
        totalFee: 20n,
        reward: 200_000_000n,
        payloadLength: 64,
        payloadHash: 'ef'.repeat(32),
        generatorPublicKey: publicKey,
        blockSignature: '30',
      },
      context,
    );
    expect(resource.forged).toEqual({
      reward: '200000000',
      fee: '20',
      amount: '5',
      total: '200000020',
    });
    expect(resource.generator).toEqual({
      username: 'genesis_1',
      address: 'address-of-02ab',
      publicKey,
    });
    expect(resource.confirmations).toBe(1);
    expect(resource.previous).toBe('98');
  });

  it('writes human times in UTC with milliseconds', () => {
    expect(timestampOf(0, epochStart).human).toBe('2017-03-21T13:00:00.000Z');
    expect(timestampOf(86_400, epochStart).unix).toBe(1490101200 + 86_400);
  });
});
