import {
  transactionVerificationItems,
  verifyTransactionSignatures,
  type SignerRegistrations,
  type TransactionData,
  type VerificationPool,
} from '@lni/crypto';

/**
 * How a transaction's signatures stand when the pool judges it: verified under these signer
 * registrations of its sender, not verifying, or `trusted` without a check (a reverted block's
 * transaction, verified when the block was taken).
 */
export type SignatureVerdict = SignerRegistrations | 'invalid' | 'trusted';

/**
 * Verifies the signatures of `transactions` in bulk, each against its sender's registrations
 * now, on the workers of `verificationPool` when there is one.
 */
export async function verifySignatures(
  transactions: readonly TransactionData[],
  registrationsOf: (senderPublicKey: string) => SignerRegistrations,
  verificationPool?: VerificationPool,
): Promise<SignatureVerdict[]> {
  const registrations = transactions.map((tx) => registrationsOf(tx.senderPublicKey));
  const verdictOf = (valid: boolean, index: number): SignatureVerdict =>
    valid ? (registrations[index] as SignerRegistrations) : 'invalid';
  if (!verificationPool) {
    return transactions.map((tx, i) =>
      verdictOf(verifyTransactionSignatures(tx, registrations[i]), i),
    );
  }
  const owners: number[] = [];
  const items = transactions.flatMap((tx, i) => {
    const list = transactionVerificationItems(tx, registrations[i]);
    for (let k = 0; k < list.length; k++) owners.push(i);
    return list;
  });
  const results = await verificationPool.verify(items);
  const valid = transactions.map(() => true);
  results.forEach((ok, k) => {
    if (!ok) valid[owners[k] as number] = false;
  });
  // A multisignature may pass with some invalid participant signatures, as in ARK.
  return valid.map((ok, i) =>
    verdictOf(
      ok || verifyTransactionSignatures(transactions[i] as TransactionData, registrations[i]),
      i,
    ),
  );
}
