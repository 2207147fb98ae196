import { createRequire } from 'node:module';
import { Managers, Transactions, Utils } from '@arkecosystem/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  delegateRegistration,
  deserializeTransaction,
  secondSignature,
  serializeTransaction,
  transactionFromJson,
  transactionHash,
  transactionId,
  transactionToJson,
  transfer,
  validateTransaction,
  verifyTransactionSignatures,
  vote,
} from './index.js';
import { addressFromPublicKey } from '../identities/address.js';
import type { Milestone } from '../networks/milestone.js';
import { verifyEcdsa } from '../signatures/ecdsa.js';

const require = createRequire(import.meta.url);
const v1Milestone = {
  ...(require('@arkecosystem/crypto-networks/dist/devnet/milestones.json') as [Milestone])[0],
  aip11: false,
} as Milestone;
const genesis = (name: string) =>
  require(`@arkecosystem/crypto-networks/dist/${name}/genesisBlock.json`) as {
    transactions: Record<string, unknown>[];
  };

beforeAll(() => {
  Managers.configManager.setFromPreset('devnet');
  Managers.configManager.setHeight(1);
});

describe("ARK genesis blocks' version-1 transactions", () => {
  for (const [name, pubKeyHash] of [
    ['devnet', 30],
    ['testnet', 23],
    ['mainnet', 23],
  ] as const) {
    it(`${name}: every id matches, and the wire bytes read back to the same transaction`, () => {
      const { transactions } = genesis(name);
      for (const json of transactions) {
        const data = transactionFromJson(json, { network: pubKeyHash });
        expect(transactionId(data)).toBe(json.id);
        expect(validateTransaction(data, v1Milestone, { pubKeyHash }, { genesis: true })).toEqual({
          ok: true,
          value: data,
        });
        const read = deserializeTransaction(serializeTransaction(data));
        expect(read.id).toBe(json.id);
        expect(transactionToJson(read).signature).toBe(json.signature);
      }
    });
  }

  it("devnet: every sender signature verifies (ARK 3.0 rejects mainnet's and testnet's too)", () => {
    for (const json of genesis('devnet').transactions) {
      const data = transactionFromJson(json, { network: 30 });
      expect(verifyTransactionSignatures(data)).toBe(true);
      const hash = transactionHash(data, { excludeSignature: true, excludeSecondSignature: true });
      const tampered = { ...data, fee: 1n };
      expect(verifyTransactionSignatures(tampered)).toBe(false);
      expect(
        verifyEcdsa(
          hash,
          Buffer.from(data.signature!, 'hex'),
          Buffer.from(data.senderPublicKey, 'hex'),
        ),
      ).toBe(true);
    }
  });

  it('ARK reads our version-1 wire bytes to the same fields', () => {
    for (const json of genesis('testnet').transactions.slice(0, 60)) {
      const data = transactionFromJson(json, { network: 23 });
      const theirs = Transactions.Deserializer.deserialize(serializeTransaction(data), {
        acceptLegacyVersion: true,
      });
      expect(theirs.data.senderPublicKey).toBe(data.senderPublicKey);
      expect(theirs.data.signature).toBe(data.signature);
      expect(Transactions.Utils.getId(theirs.data)).toBe(json.id);
    }
  });

  it('version-1 builders sign what ARK verifies (genesis generation)', () => {
    const delegate = delegateRegistration({ network: 30 }).version(1).fee(0).username('genesis_1');
    const registration = delegate.sign('secret one').build();
    const votes = vote({ network: 30 })
      .version(1)
      .fee(0)
      .vote(registration.senderPublicKey)
      .sign('secret one')
      .build();
    const payment = transfer({ network: 30 })
      .version(1)
      .fee(0)
      .recipientId('D6Z26L69gdk9qYmTv5uzk3uGepigtHY4ax')
      .amount(12_500_000n)
      .sign('secret two')
      .build();
    const second = secondSignature({ network: 30 })
      .version(1)
      .fee(0)
      .secondPassphrase('secret three')
      .sign('secret one')
      .build();
    expect(deserializeTransaction(serializeTransaction(second))).toEqual(second);
    for (const data of [registration, votes, payment, second]) {
      const json = transactionToJson(data);
      const ark = {
        ...json,
        amount: Utils.BigNumber.make(json.amount),
        fee: Utils.BigNumber.make(json.fee),
      };
      expect(Transactions.Utils.getId(ark as never)).toBe(data.id);
      expect(Transactions.Verifier.verifyHash(ark as never, true)).toBe(true);
      expect(verifyTransactionSignatures(data)).toBe(true);
    }
    expect(votes.recipientId).toBe(addressFromPublicKey(registration.senderPublicKey, 30));
  });
});
