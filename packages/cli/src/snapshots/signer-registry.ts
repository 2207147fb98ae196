import {
  multiSignaturePublicKey,
  TransactionType,
  type SignerRegistrations,
  type TransactionData,
} from '@lni/crypto';

/**
 * Who must sign for each wallet, followed along the chain as a snapshot is checked: a second
 * public key once its registration is in a block, a multisignature for the multisignature's own
 * public key. The snapshot carries no wallet state that could be trusted for this.
 */
export class SignerRegistry {
  readonly #registrations = new Map<string, SignerRegistrations>();

  of(senderPublicKey: string): SignerRegistrations {
    return this.#registrations.get(senderPublicKey) ?? {};
  }

  /** Whether `transaction` changes who signs for a wallet (so later blocks see the change). */
  static registers(transaction: TransactionData): boolean {
    return (
      transaction.typeGroup === 1 &&
      (transaction.type === TransactionType.SecondSignature ||
        transaction.type === TransactionType.MultiSignature)
    );
  }

  apply(transaction: TransactionData): void {
    if (!SignerRegistry.registers(transaction)) return;
    const asset = transaction.asset as
      | {
          signature?: { publicKey: string };
          multiSignature?: { min: number; publicKeys: string[] };
        }
      | undefined;
    if (transaction.type === TransactionType.SecondSignature && asset?.signature) {
      const own = this.of(transaction.senderPublicKey);
      this.#registrations.set(transaction.senderPublicKey, {
        ...own,
        secondPublicKey: asset.signature.publicKey,
      });
    }
    if (transaction.type === TransactionType.MultiSignature && asset?.multiSignature) {
      const { min, publicKeys } = asset.multiSignature;
      this.#registrations.set(multiSignaturePublicKey(min, publicKeys), {
        multiSignature: { min, publicKeys },
      });
    }
  }
}
