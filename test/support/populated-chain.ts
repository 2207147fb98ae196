import {
  addressFromPassphrase,
  delegateRegistration,
  delegateResignation,
  htlcClaim,
  htlcLock,
  htlcRefund,
  ipfs,
  keysFromPassphrase,
  multiPayment,
  multiSignature,
  secondSignature,
  sha256,
  transfer,
  vote,
  type TransactionData,
} from '@lni/crypto';
import type { LedgerNode } from './ledger-node.js';

/** Who did what on the chain `forgePopulatedChain` made, for routes that take an id. */
export interface PopulatedChain {
  readonly passphrases: Readonly<Record<Name, string>>;
  readonly addresses: Readonly<Record<Name, string>>;
  /** One transaction of each kind, by name. */
  readonly transactions: Readonly<Record<string, TransactionData>>;
  /** The usernames registered: `bob` stays a delegate, `carol` resigned. */
  readonly delegates: { readonly active: string; readonly resigned: string };
}

type Name = 'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'frank' | 'grace';
const NAMES: readonly Name[] = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'];
const COIN = 100_000_000n;

/**
 * Extends a node's testnet chain with every transaction type the testnet supports, in blocks:
 * transfers and a multipayment, a second signature (and a transfer signed with it), delegate
 * registrations, votes and a vote switch, a resignation, a multisignature registration, an IPFS
 * hash, and HTLC locks claimed, refunded and left open.
 */
export async function forgePopulatedChain(
  node: LedgerNode,
  funder: string,
  pubKeyHash: number,
): Promise<PopulatedChain> {
  const milestone = node.milestones.at(2);
  const options = { network: pubKeyHash, milestone };
  const passphrases = Object.fromEntries(
    NAMES.map((name) => [name, `populated chain ${name}`]),
  ) as Record<Name, string>;
  const addresses = Object.fromEntries(
    NAMES.map((name) => [name, addressFromPassphrase(passphrases[name], pubKeyHash)]),
  ) as Record<Name, string>;
  const publicKey = (name: Name) => keysFromPassphrase(passphrases[name]).publicKey.toString('hex');
  const nonces = new Map<string, bigint>();
  const nonce = async (passphrase: string): Promise<bigint> => {
    const address = addressFromPassphrase(passphrase, pubKeyHash);
    let next = nonces.get(address);
    if (next === undefined) {
      const answer = (await (await fetch(`${node.api}/wallets/${address}`)).json()) as {
        data?: { nonce: string };
      };
      next = BigInt(answer.data?.nonce ?? '0');
    }
    next += 1n;
    nonces.set(address, next);
    return next;
  };
  const transactions: Record<string, TransactionData> = {};

  const funding: TransactionData[] = [];
  for (const name of NAMES) {
    funding.push(
      transfer(options)
        .recipientId(addresses[name])
        .amount(1_000n * COIN)
        .nonce(await nonce(funder))
        .vendorField(`funding ${name}`)
        .sign(funder)
        .build(),
    );
  }
  transactions.transfer = funding[0] as TransactionData;
  await node.forge(funding);

  transactions.multiPayment = multiPayment(options)
    .addPayment(addresses.bob, 3n * COIN)
    .addPayment(addresses.carol, 4n * COIN)
    .nonce(await nonce(passphrases.alice))
    .sign(passphrases.alice)
    .build();
  transactions.secondSignature = secondSignature(options)
    .secondPassphrase(`${passphrases.dave} second`)
    .nonce(await nonce(passphrases.dave))
    .sign(passphrases.dave)
    .build();
  transactions.delegateRegistration = delegateRegistration(options)
    .username('populated_bob')
    .nonce(await nonce(passphrases.bob))
    .sign(passphrases.bob)
    .build();
  const carolRegistration = delegateRegistration(options)
    .username('populated_carol')
    .nonce(await nonce(passphrases.carol))
    .sign(passphrases.carol)
    .build();
  transactions.ipfs = ipfs(options)
    .ipfsAsset('QmYSK2JyM3RyDyB52caZCTKFR3HKniEcMnNJYdk8DQ6KKB')
    .nonce(await nonce(passphrases.grace))
    .sign(passphrases.grace)
    .build();
  const members = [publicKey('erin'), publicKey('frank'), publicKey('grace')];
  transactions.multiSignature = multiSignature(options)
    .multiSignatureAsset({ min: 2, publicKeys: members })
    .senderPublicKey(publicKey('erin'))
    .nonce(await nonce(passphrases.erin))
    .multiSign(keysFromPassphrase(passphrases.erin), 0)
    .multiSign(keysFromPassphrase(passphrases.frank), 1)
    .multiSign(keysFromPassphrase(passphrases.grace), 2)
    .sign(passphrases.erin)
    .build();
  await node.forge([
    transactions.multiPayment,
    transactions.secondSignature,
    transactions.delegateRegistration,
    carolRegistration,
    transactions.ipfs,
    transactions.multiSignature,
  ]);

  transactions.vote = vote(options)
    .vote(publicKey('bob'))
    .nonce(await nonce(passphrases.alice))
    .sign(passphrases.alice)
    .build();
  const carolVote = vote(options)
    .vote(publicKey('carol'))
    .nonce(await nonce(passphrases.frank))
    .sign(passphrases.frank)
    .build();
  transactions.secondSigned = transfer(options)
    .recipientId(addresses.alice)
    .amount(5n * COIN)
    .nonce(await nonce(passphrases.dave))
    .sign(passphrases.dave)
    .secondSign(`${passphrases.dave} second`)
    .build();
  const secrets = ['claimed', 'refunded', 'open'].map((word) =>
    sha256(Buffer.from(`populated chain ${word}`)).toString('hex'),
  );
  const lock = async (secret: string, expiresIn: number, amount: bigint) => {
    const last = (await (await fetch(`${node.api}/blocks/last`)).json()) as {
      data: { timestamp: { epoch: number } };
    };
    return htlcLock(options)
      .recipientId(addresses.carol)
      .amount(amount)
      .htlcLockAsset({
        secretHash: sha256(Buffer.from(secret, 'hex')).toString('hex'),
        expiration: { type: 1, value: last.data.timestamp.epoch + expiresIn },
      })
      .nonce(await nonce(passphrases.bob))
      .sign(passphrases.bob)
      .build();
  };
  transactions.htlcLock = await lock(secrets[0] as string, 3_600, 10n * COIN);
  // Expires between the lock's block (the next slot, 8 s on) and the refund's (16 s on).
  const toRefund = await lock(secrets[1] as string, 12, 11n * COIN);
  transactions.openLock = await lock(secrets[2] as string, 3_600, 12n * COIN);
  await node.forge([
    transactions.vote,
    carolVote,
    transactions.secondSigned,
    transactions.htlcLock,
    toRefund,
    transactions.openLock,
  ]);

  transactions.delegateResignation = delegateResignation(options)
    .nonce(await nonce(passphrases.carol))
    .sign(passphrases.carol)
    .build();
  transactions.htlcClaim = htlcClaim(options)
    .htlcClaimAsset({
      lockTransactionId: transactions.htlcLock.id as string,
      unlockSecret: secrets[0] as string,
    })
    .nonce(await nonce(passphrases.carol))
    .sign(passphrases.carol)
    .build();
  transactions.htlcRefund = htlcRefund(options)
    .htlcRefundAsset({ lockTransactionId: toRefund.id as string })
    .nonce(await nonce(passphrases.bob))
    .sign(passphrases.bob)
    .build();
  // A vote switch: the resigned delegate's voter moves to the active one.
  transactions.voteSwitch = vote(options)
    .unvote(publicKey('carol'))
    .vote(publicKey('bob'))
    .nonce(await nonce(passphrases.frank))
    .sign(passphrases.frank)
    .build();
  await node.forge([
    transactions.delegateResignation,
    transactions.htlcClaim,
    transactions.htlcRefund,
    transactions.voteSwitch,
  ]);
  return {
    passphrases,
    addresses,
    transactions,
    delegates: { active: 'populated_bob', resigned: 'populated_carol' },
  };
}
