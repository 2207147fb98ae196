import { afterAll, describe, expect, it } from 'vitest';
import { transfer, VerificationPool, type TransactionData } from '@lni/crypto';
import {
  addressOf,
  ALICE,
  BOB,
  keysOf,
  PUB_KEY_HASH,
  transferOf,
} from '../blocks/__fixtures__/test-chain.js';
import { verifySignatures } from './pool-signatures.js';

const SECOND = 'alice second passphrase for the pool signatures';
const secondKey = keysOf(SECOND).publicKey.toString('hex');
const bob = addressOf(BOB);
const doublySigned = transfer({ network: PUB_KEY_HASH })
  .recipientId(bob)
  .amount(1n)
  .nonce(1n)
  .sign(keysOf(ALICE))
  .secondSign(keysOf(SECOND))
  .build();
const plain = transferOf(ALICE, bob, 1n, 1n);
const { id: _id, ...unsigned } = transferOf(ALICE, bob, 2n, 2n);
const forged: TransactionData = { ...unsigned, signature: plain.signature as string };

/** Alice registered SECOND as her second key; nobody else registered anything. */
const registrationsOf = (publicKey: string) =>
  publicKey === keysOf(ALICE).publicKey.toString('hex') ? { secondPublicKey: secondKey } : {};

const workers = new VerificationPool({ size: 1 });
afterAll(() => workers.close());

describe.each([
  ['on this thread', undefined],
  ['on the VerificationPool', workers],
])('verifySignatures %s', (_where, pool) => {
  it('gives the registrations each transaction verified under', async () => {
    expect(await verifySignatures([doublySigned], registrationsOf, pool)).toEqual([
      { secondPublicKey: secondKey },
    ]);
    expect(await verifySignatures([plain], () => ({}), pool)).toEqual([{}]);
  });

  it('calls invalid a forged signature and a missing second signature', async () => {
    expect(await verifySignatures([forged, plain], registrationsOf, pool)).toEqual([
      'invalid',
      'invalid',
    ]);
    // Without the registration, a second signature is one too many.
    expect(await verifySignatures([doublySigned], () => ({}), pool)).toEqual(['invalid']);
  });
});
