import { keysFromPassphrase, type KeyPair } from '../identities/keys.js';
import { signEcdsa } from '../signatures/ecdsa.js';
import { signSchnorr } from '../signatures/schnorr.js';
import { TransactionError } from './transaction-error.js';
import type { TransactionData } from './transaction-data.js';
import { transactionHash } from './transaction-hash.js';

/** A passphrase or a key pair to sign with. */
export type Signer = string | KeyPair;

const MAX_PARTICIPANT_INDEX = 255;

function keysOf(signer: Signer): KeyPair {
  return typeof signer === 'string' ? keysFromPassphrase(signer) : signer;
}

function signHash(data: TransactionData, hash: Buffer, keys: KeyPair): string {
  // Version 2 signs with ARK 3.0's Schnorr, version 1 (genesis blocks) with DER ECDSA.
  const signature =
    data.version === 1 ? signEcdsa(hash, keys.privateKey) : signSchnorr(hash, keys.privateKey);
  return signature.toString('hex');
}

/**
 * The data with the sender's signature over everything but the sender and second signature
 * (a multisignature registration's participant signatures are covered). Sets senderPublicKey
 * when it is empty; otherwise it must be the signer's.
 */
export function signTransaction(data: TransactionData, signer: Signer): TransactionData {
  const keys = keysOf(signer);
  const publicKey = keys.publicKey.toString('hex');
  if (data.senderPublicKey !== '' && data.senderPublicKey !== publicKey) {
    throw new TransactionError('senderPublicKey', 'is not the public key of the signer');
  }
  const unsigned = { ...data, senderPublicKey: publicKey };
  const hash = transactionHash(unsigned, { excludeSignature: true, excludeSecondSignature: true });
  return { ...unsigned, signature: signHash(data, hash, keys) };
}

/** The data with the second signature, which covers the bytes including the sender's signature. */
export function secondSignTransaction(data: TransactionData, signer: Signer): TransactionData {
  if (data.signature === undefined) {
    throw new TransactionError('signature', 'sign before adding the second signature');
  }
  const hash = transactionHash(data, { excludeSecondSignature: true });
  return { ...data, secondSignature: signHash(data, hash, keysOf(signer)) };
}

/**
 * The data with one more participant signature (hex `index ‖ Schnorr signature`), over the
 * bytes without any signature. `index` is the signer's position in the multisignature keys.
 */
export function multiSignTransaction(
  data: TransactionData,
  signer: Signer,
  index: number,
): TransactionData {
  if (!Number.isInteger(index) || index < 0 || index > MAX_PARTICIPANT_INDEX) {
    throw new TransactionError('index', `expected an integer from 0 to 255, got ${index}`);
  }
  if (data.version !== 2) throw new TransactionError('version', 'multisignatures need version 2');
  const hash = transactionHash(data, {
    excludeSignature: true,
    excludeSecondSignature: true,
    excludeMultiSignature: true,
  });
  const signature = signSchnorr(hash, keysOf(signer).privateKey).toString('hex');
  const indexed = index.toString(16).padStart(2, '0') + signature;
  return { ...data, signatures: [...(data.signatures ?? []), indexed] };
}
