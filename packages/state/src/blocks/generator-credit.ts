import { addressFromPublicKey, blockHeaderOf } from '@lni/crypto';
import { changeWallet } from '../dpos/vote-balances.js';
import type { LedgerState } from '../handlers/transaction-handler.js';
import type { LastBlock } from '../wallets/wallet.js';
import type { FullBlock } from './block-store.js';

/**
 * Pays the generator its reward and the block's fees and counts the block as its own. The
 * generator's wallet exists from its first block on, known by its public key, even when it earns
 * nothing (ARK's genesis generator, which sends and receives nothing).
 */
export function creditGenerator(block: FullBlock, state: LedgerState): void {
  const address = addressFromPublicKey(block.generatorPublicKey, state.pubKeyHash);
  const earned = block.reward + block.totalFee;
  changeWallet(state.repository, address, (wallet) => ({
    ...(wallet.publicKey === undefined && { publicKey: block.generatorPublicKey }),
    balance: wallet.balance + earned,
  }));
  const delegate = state.repository.get(address)?.attributes.delegate;
  if (!delegate) return;
  state.repository.update(address, {
    attributes: {
      delegate: {
        ...delegate,
        forgedFees: delegate.forgedFees + block.totalFee,
        forgedRewards: delegate.forgedRewards + block.reward,
        producedBlocks: delegate.producedBlocks + 1,
        lastBlock: blockHeaderOf(block),
      },
    },
  });
}

/**
 * The inverse of creditGenerator; `previousLastBlock` is the block the generator forged before
 * this one (from storage), undefined when this was its first.
 */
export function debitGenerator(
  block: FullBlock,
  state: LedgerState,
  previousLastBlock: LastBlock | undefined,
): void {
  const address = addressFromPublicKey(block.generatorPublicKey, state.pubKeyHash);
  const delegate = state.repository.get(address)?.attributes.delegate;
  if (delegate) {
    const { lastBlock: _forgotten, ...rest } = delegate;
    state.repository.update(address, {
      attributes: {
        delegate: {
          ...rest,
          forgedFees: delegate.forgedFees - block.totalFee,
          forgedRewards: delegate.forgedRewards - block.reward,
          producedBlocks: delegate.producedBlocks - 1,
          ...(previousLastBlock && { lastBlock: previousLastBlock }),
        },
      },
    });
  }
  const earned = block.reward + block.totalFee;
  if (earned !== 0n) addBalance(state, address, -earned);
}

function addBalance(state: LedgerState, address: string, delta: bigint): void {
  changeWallet(state.repository, address, (wallet) => ({ balance: wallet.balance + delta }));
}
