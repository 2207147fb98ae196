import {
  delegateRegistration,
  loadNetworkConfig,
  Milestones,
  serializeTransaction,
  transfer,
  type BlockHeader,
  type TransactionData,
} from '@lni/crypto';
import type { BlockWithTransactions } from '@lni/database';
import { storedTransactionOf } from '@lni/state';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const TESTNET_CRYPTO = fileURLToPath(
  new URL('../../../cli/networks/testnet/crypto', import.meta.url),
);
export const network = loadNetworkConfig(TESTNET_CRYPTO);
export const PUB_KEY_HASH = network.network.pubKeyHash;

/** The testnet's milestones with rounds of three blocks, so that a short chain closes rounds. */
export const shortRounds = new Milestones(
  network.milestones.map((milestone) => ({ ...milestone, activeDelegates: 3 })),
);

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A transfer and a delegate registration, signed, as a block of the chain carries them. */
export function sampleTransactions(tag: string): TransactionData[] {
  return [
    transfer({ network: PUB_KEY_HASH })
      .recipientId('ANBkoGqWeTSiaEVgVzSKZd3jS7UWzv9PSo')
      .amount(5n)
      .nonce(1n)
      .sign(`sender ${tag}`)
      .build(),
    delegateRegistration({ network: PUB_KEY_HASH })
      .username(`new_${tag}`)
      .nonce(1n)
      .sign(`delegate ${tag}`)
      .build(),
  ];
}

/** A stored block at `height` on the branch `branch`, with its transactions. */
export function storedBlock(
  height: number,
  transactions: readonly TransactionData[] = [],
  branch = 'main',
): BlockWithTransactions {
  const block: BlockHeader = {
    id: blockIdOf(height, branch),
    version: 0,
    timestamp: height * 8,
    height,
    previousBlock: height === 1 ? null : blockIdOf(height - 1, 'main'),
    numberOfTransactions: transactions.length,
    totalAmount: 0n,
    totalFee: 0n,
    reward: 0n,
    payloadLength: 0,
    payloadHash: hex(`payload ${height}`),
    generatorPublicKey: `02${hex('generator')}`,
    blockSignature: hex(`signature ${height}`).repeat(2),
  };
  return {
    block,
    transactions: transactions.map((tx, sequence) =>
      storedTransactionOf(tx, block, sequence, serializeTransaction(tx)),
    ),
  };
}

/** Block ids by height and branch: digits, as ARK's ids of version 0 blocks are. */
export function blockIdOf(height: number, branch: string): string {
  return BigInt(`0x${hex(`${branch} ${height}`).slice(0, 15)}`).toString();
}
