import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  addressFromPublicKey,
  forgeBlock,
  keysFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionId,
  transfer,
  type BlockData,
  type TransactionData,
} from '@lni/crypto';
import { WalletRepository } from '@lni/state';
import { benchPublicKey, seededWalletFields } from './seeded-wallets.js';

const config = loadNetworkConfig(join(import.meta.dirname, '../../cli/networks/testnet/crypto'));
const milestones = new Milestones(config.milestones);
/** The testnet's milestone the bench's blocks and transfers are made under. */
export const milestone = milestones.at(2);
export const { pubKeyHash } = config.network;

export interface TransferChainSizes {
  /** Wallets that receive transfers, the first `delegates` of them delegates. */
  readonly wallets: number;
  readonly senders: number;
  readonly delegates: number;
  /** One transfer in this many is sent by sender 0: a busy address for the cursor walk. */
  readonly busyShare: number;
}

const keysOf = (label: string) => keysFromPassphrase(label);

/**
 * The transactions bench's chain, the same at every run: senders paying recipients in a fixed
 * pattern, blocks forged by one generator, and the wallets in the state indexes (balances,
 * votes and delegates drawn from a seeded generator). Signatures are random bytes: the API
 * reads them back but never verifies them, and signing a million transfers would only make
 * the set-up slow.
 */
export class TransferChain {
  readonly wallets = new WalletRepository();
  readonly senderAddresses: readonly string[];
  readonly recipients: readonly string[];
  readonly #sizes: TransferChainSizes;
  readonly #senders: readonly { readonly publicKey: Buffer }[];
  readonly #nonces: bigint[];
  readonly #generator = keysOf('api bench generator');
  #made = 0;
  #previous: BlockData<TransactionData> | undefined;

  constructor(sizes: TransferChainSizes) {
    this.#sizes = sizes;
    this.#senders = Array.from({ length: sizes.senders }, (_, i) => keysOf(`api sender ${i}`));
    this.#nonces = new Array<bigint>(sizes.senders).fill(0n);
    this.senderAddresses = this.#senders.map((keys) =>
      addressFromPublicKey(keys.publicKey, pubKeyHash),
    );
    this.recipients = Array.from({ length: sizes.wallets }, (_, i) =>
      addressFromPublicKey(keysOf(`api recipient ${i}`).publicKey, pubKeyHash),
    );
    this.#loadWallets();
  }

  /** Transfers made so far. */
  get made(): number {
    return this.#made;
  }

  /** The next `count` transfers of the pattern. */
  nextTransfers(count: number): TransactionData[] {
    return Array.from({ length: count }, () => {
      const n = this.#made;
      this.#made += 1;
      const sender = this.#senderOf(n);
      const nonce = (this.#nonces[sender] as bigint) + 1n;
      this.#nonces[sender] = nonce;
      const data = transfer({ network: pubKeyHash, milestone })
        .recipientId(this.recipients[(n * 31) % this.#sizes.wallets] as string)
        .amount(1 + ((n * 7919) % 1_000_000))
        .nonce(nonce)
        .senderPublicKey((this.#senders[sender] as { publicKey: Buffer }).publicKey.toString('hex'))
        .build();
      const signed = { ...data, signature: randomBytes(64).toString('hex') };
      return { ...signed, id: transactionId(signed) };
    });
  }

  /** The next block, holding `transactions`, on top of the last one. */
  forge(transactions: TransactionData[]): BlockData<TransactionData> {
    const block = forgeBlock({
      transactions,
      ...(this.#previous && { previousBlock: this.#previous }),
      timestamp: (this.#previous?.height ?? 1) * 8,
      keys: this.#generator,
      milestones,
    });
    this.#previous = block;
    return block;
  }

  /** Carries on from a stored chain of `count` transfers whose last block is `last`. */
  resume(last: BlockData<TransactionData>, count: number): void {
    // The senders' nonces as the stored transfers left them (the pattern is deterministic).
    for (; this.#made < count; this.#made += 1) {
      const sender = this.#senderOf(this.#made);
      this.#nonces[sender] = (this.#nonces[sender] as bigint) + 1n;
    }
    this.#previous = last;
  }

  #senderOf(n: number): number {
    return n % this.#sizes.busyShare === 0 ? 0 : n % this.#sizes.senders;
  }

  #loadWallets(): void {
    const fieldsOf = seededWalletFields({ delegates: this.#sizes.delegates, resignEvery: 50 });
    this.wallets.load([
      ...this.#senders.map((keys, i) => ({
        address: this.senderAddresses[i] as string,
        publicKey: keys.publicKey.toString('hex'),
        balance: 10n ** 15n,
      })),
      ...this.recipients.map((address, n) => ({
        address,
        // The first recipients are delegates, known by a (made-up) public key.
        ...(n < this.#sizes.delegates && { publicKey: benchPublicKey(n) }),
        ...fieldsOf(n),
      })),
    ]);
  }
}
