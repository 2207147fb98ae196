import { Managers, Transactions } from '@arkecosystem/crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressFromPassphrase } from '../identities/address.js';
import { keysFromPassphrase } from '../identities/keys.js';
import { multiSignaturePublicKey } from '../identities/multi-signature.js';
import {
  delegateRegistration,
  delegateResignation,
  deserializeTransaction,
  htlcClaim,
  htlcLock,
  htlcRefund,
  ipfs,
  multiPayment,
  multiSignature,
  secondSignature,
  serializeTransaction,
  transactionFromJson,
  transfer,
  verifyTransactionSignatures,
  vote,
  type TransactionData,
} from './index.js';

// ARK signs natively too, but each build also validates; 100 signed cases per type stay fast.
const RUNS = 100;
const DEVNET = 30;
const network = { network: DEVNET };

const passphrase = fc.string({ minLength: 1, maxLength: 30 });
const hex32 = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => Buffer.from(b).toString('hex'));
const amount = fc.bigInt({ min: 1n, max: 2n ** 62n }).map(String);
const nonce = fc.bigInt({ min: 1n, max: 2n ** 62n }).map(String);
const address = passphrase.map((p) => addressFromPassphrase(p, DEVNET));
const publicKeyHex = (p: string) => keysFromPassphrase(p).publicKey.toString('hex');

/** The builder methods both libraries share, to drive them side by side. */
interface AnyBuilder {
  nonce(n: string): AnyBuilder;
  fee(f: string): AnyBuilder;
  sign(p: string): AnyBuilder;
  secondSign(p: string): AnyBuilder;
  build(): TransactionData;
}
// ARK's builders are typed per type; the test drives them through the methods it needs.
type ArkMethod = (...args: unknown[]) => ArkBuilder;
interface ArkBuilder {
  nonce: ArkMethod;
  fee: ArkMethod;
  sign: ArkMethod;
  secondSign: ArkMethod;
  multiSign: ArkMethod;
  senderPublicKey: ArkMethod;
  recipientId: ArkMethod;
  amount: ArkMethod;
  vendorField: ArkMethod;
  signatureAsset: ArkMethod;
  usernameAsset: ArkMethod;
  votesAsset: ArkMethod;
  ipfsAsset: ArkMethod;
  addPayment: ArkMethod;
  htlcLockAsset: ArkMethod;
  htlcClaimAsset: ArkMethod;
  htlcRefundAsset: ArkMethod;
  multiSignatureAsset: ArkMethod;
  build(): { serialized: Buffer; data: Record<string, unknown> };
}

/** The same transaction through both builders; `configure` sets the type-specific fields. */
interface SignedCase {
  readonly name: string;
  readonly fields: fc.Arbitrary<Record<string, unknown>>;
  /** HTLC claims and refunds are free; second-signature registrations cannot be second-signed. */
  readonly fee?: string;
  readonly noSecondSignature?: boolean;
  ours(f: Record<string, unknown>): AnyBuilder;
  theirs(f: Record<string, unknown>): ArkBuilder;
}

const factory = Transactions.BuilderFactory as unknown as Record<string, () => ArkBuilder>;
const ark = (type: string): ArkBuilder => factory[type]!();

const cases: SignedCase[] = [
  {
    name: 'transfer',
    fields: fc.record({ recipientId: address, amount, vendorField: fc.string({ maxLength: 50 }) }),
    ours: (f) =>
      transfer(network)
        .recipientId(f.recipientId as string)
        .amount(f.amount as string)
        .vendorField(f.vendorField as string) as unknown as AnyBuilder,
    theirs: (f) =>
      ark('transfer').recipientId(f.recipientId).amount(f.amount).vendorField(f.vendorField),
  },
  {
    name: 'secondSignature',
    noSecondSignature: true,
    fields: fc.record({ second: passphrase }),
    ours: (f) =>
      secondSignature(network).secondPassphrase(f.second as string) as unknown as AnyBuilder,
    theirs: (f) => ark('secondSignature').signatureAsset(f.second),
  },
  {
    name: 'delegateRegistration',
    fields: fc.record({ username: fc.stringMatching(/^[a-z0-9!@$&_.]{1,20}$/) }),
    ours: (f) =>
      delegateRegistration(network).username(f.username as string) as unknown as AnyBuilder,
    theirs: (f) => ark('delegateRegistration').usernameAsset(f.username),
  },
  {
    name: 'vote',
    fields: fc.record({ delegate: passphrase, sign: fc.constantFrom('+', '-') }),
    ours: (f) =>
      vote(network).votes([
        `${f.sign}${publicKeyHex(f.delegate as string)}`,
      ]) as unknown as AnyBuilder,
    theirs: (f) => ark('vote').votesAsset([`${f.sign}${publicKeyHex(f.delegate as string)}`]),
  },
  {
    name: 'ipfs',
    fields: fc.record({ digest: hex32 }),
    ours: (f) => ipfs(network).ipfsAsset(multihash(f.digest as string)) as unknown as AnyBuilder,
    theirs: (f) => ark('ipfs').ipfsAsset(multihash(f.digest as string)),
  },
  {
    name: 'multiPayment',
    fields: fc.record({
      payments: fc.array(fc.tuple(address, amount), { minLength: 2, maxLength: 8 }),
      vendorField: fc.string({ maxLength: 20 }),
    }),
    ours: (f) => {
      const builder = multiPayment(network).vendorField(f.vendorField as string);
      for (const [to, value] of f.payments as [string, string][]) builder.addPayment(to, value);
      return builder as unknown as AnyBuilder;
    },
    theirs: (f) => {
      const builder = ark('multiPayment');
      builder.vendorField(f.vendorField);
      for (const [to, value] of f.payments as [string, string][]) builder.addPayment(to, value);
      return builder;
    },
  },
  {
    name: 'delegateResignation',
    fields: fc.constant({}),
    ours: () => delegateResignation(network) as unknown as AnyBuilder,
    theirs: () => ark('delegateResignation'),
  },
  {
    name: 'htlcLock',
    fields: fc.record({
      recipientId: address,
      amount,
      secretHash: hex32,
      type: fc.constantFrom(1, 2),
      value: fc.nat({ max: 2 ** 32 - 1 }),
    }),
    ours: (f) =>
      htlcLock(network)
        .recipientId(f.recipientId as string)
        .amount(f.amount as string)
        .htlcLockAsset(lockAsset(f)) as unknown as AnyBuilder,
    theirs: (f) =>
      ark('htlcLock').recipientId(f.recipientId).amount(f.amount).htlcLockAsset(lockAsset(f)),
  },
  {
    name: 'htlcClaim',
    fee: '0',
    fields: fc.record({ lockTransactionId: hex32, unlockSecret: hex32 }),
    ours: (f) =>
      htlcClaim(network).htlcClaimAsset(
        f as { lockTransactionId: string; unlockSecret: string },
      ) as unknown as AnyBuilder,
    theirs: (f) => ark('htlcClaim').htlcClaimAsset({ ...f }),
  },
  {
    name: 'htlcRefund',
    fee: '0',
    fields: fc.record({ lockTransactionId: hex32 }),
    ours: (f) =>
      htlcRefund(network).htlcRefundAsset(
        f as { lockTransactionId: string },
      ) as unknown as AnyBuilder,
    theirs: (f) => ark('htlcRefund').htlcRefundAsset({ ...f }),
  },
];

function multihash(digestHex: string): string {
  // A sha2-256 multihash (0x12, 32 bytes) as IPFS writes it.
  return baseMultihash(Buffer.from(`1220${digestHex}`, 'hex'));
}

function baseMultihash(bytes: Buffer): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
}

function lockAsset(f: Record<string, unknown>) {
  return {
    secretHash: f.secretHash as string,
    expiration: { type: f.type as 1 | 2, value: f.value as number },
  };
}

function fromArk(data: Record<string, unknown>): TransactionData {
  return transactionFromJson(JSON.parse(JSON.stringify(data)));
}

beforeAll(() => {
  Managers.configManager.setFromPreset('devnet');
  Managers.configManager.setHeight(4_006_000);
});

describe('signed transactions agree with ARK 3.0 builders', () => {
  for (const signedCase of cases) {
    it(`${signedCase.name}: same signatures (deterministic Schnorr), each verifies the other's`, () => {
      fc.assert(
        fc.property(
          signedCase.fields,
          passphrase,
          fc.option(passphrase, { nil: undefined }),
          nonce,
          fc.bigInt({ min: 1n, max: 10n ** 10n }).map(String),
          (fields, sender, maybeSecond, txNonce, randomFee) => {
            const second = signedCase.noSecondSignature ? undefined : maybeSecond;
            const fee = signedCase.fee ?? randomFee;
            const ours = signedCase.ours(fields).nonce(txNonce).fee(fee).sign(sender);
            const theirs = signedCase.theirs(fields).nonce(txNonce).fee(fee).sign(sender);
            if (second !== undefined) {
              ours.secondSign(second);
              theirs.secondSign(second);
            }
            const built = ours.build();
            const arkBuilt = theirs.build();
            expect(serializeTransaction(built).toString('hex')).toBe(
              arkBuilt.serialized.toString('hex'),
            );
            expect(built.id).toBe(arkBuilt.data.id);

            const secondPublicKey = second === undefined ? undefined : publicKeyHex(second);
            const registrations = { secondPublicKey };
            expect(verifyTransactionSignatures(fromArk(arkBuilt.data), registrations)).toBe(true);
            const read = Transactions.TransactionFactory.fromBytes(serializeTransaction(built));
            expect(read.verify()).toBe(true);
            if (secondPublicKey !== undefined) {
              expect(Transactions.Verifier.verifySecondSignature(read.data, secondPublicKey)).toBe(
                true,
              );
            }
            expect(deserializeTransaction(arkBuilt.serialized)).toEqual(built);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it('multiSignature registration: same participant and sender signatures', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(passphrase, { minLength: 2, maxLength: 5, selector: publicKeyHex }),
        nonce,
        (participants, txNonce) => {
          const publicKeys = participants.map(publicKeyHex);
          const min = Math.max(1, participants.length - 1);
          const sender = participants[0] as string;
          const ours = multiSignature(network)
            .multiSignatureAsset({ min, publicKeys })
            .senderPublicKey(publicKeyHex(sender))
            .nonce(txNonce);
          const theirs = ark('multiSignature').multiSignatureAsset({
            min,
            publicKeys,
          });
          theirs.senderPublicKey(publicKeyHex(sender)).nonce(txNonce);
          participants.forEach((p, index) => {
            ours.multiSign(p, index);
            theirs.multiSign(p, index);
          });
          const built = ours.sign(sender).build();
          const arkBuilt = theirs.sign(sender).build();
          expect(serializeTransaction(built).toString('hex')).toBe(
            arkBuilt.serialized.toString('hex'),
          );
          expect(verifyTransactionSignatures(fromArk(arkBuilt.data))).toBe(true);
          expect(
            Transactions.TransactionFactory.fromBytes(serializeTransaction(built)).verify(),
          ).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('multisignature wallet transfer: same participant signatures, each verifies the other', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(passphrase, { minLength: 2, maxLength: 5, selector: publicKeyHex }),
        address,
        amount,
        nonce,
        (participants, to, value, txNonce) => {
          const publicKeys = participants.map(publicKeyHex);
          const min = participants.length - 1;
          const walletKey = multiSignaturePublicKey(min, publicKeys);
          const ours = transfer(network).recipientId(to).amount(value).nonce(txNonce).fee('1000');
          ours.senderPublicKey(walletKey);
          const theirs = ark('transfer').recipientId(to).amount(value).nonce(txNonce).fee('1000');
          theirs.senderPublicKey(walletKey);
          // Participants sign in key order, skipping the first: min of n.
          participants.slice(1).forEach((p, i) => {
            ours.multiSign(p, i + 1);
            theirs.multiSign(p, i + 1);
          });
          const built = ours.build();
          const arkBuilt = theirs.build();
          expect(serializeTransaction(built).toString('hex')).toBe(
            arkBuilt.serialized.toString('hex'),
          );
          const wallet = { multiSignature: { min, publicKeys } };
          expect(verifyTransactionSignatures(fromArk(arkBuilt.data), wallet)).toBe(true);
          const read = Transactions.TransactionFactory.fromBytes(serializeTransaction(built));
          expect(Transactions.Verifier.verifySignatures(read.data, wallet.multiSignature)).toBe(
            true,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
