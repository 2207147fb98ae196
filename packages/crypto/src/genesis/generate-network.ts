import { blockToJson, type BlockJson } from '../blocks/block-json.js';
import { forgeBlock } from '../blocks/forge-block.js';
import { verifyBlock } from '../blocks/verify-block.js';
import { isValidAddress } from '../identities/address.js';
import type { MilestoneEntry } from '../networks/milestone.js';
import { Milestones } from '../networks/milestones.js';
import type { NetworkParams } from '../networks/network-params.js';
import {
  resolveNetworkOptions,
  type GenerateNetworkOptions,
  type InitialBalance,
} from './generate-network-options.js';
import { evenBalances, genesisTransactions } from './genesis-transactions.js';
import { genesisWallet } from './genesis-wallet.js';
import { networkMilestones, networkParams } from './network-files.js';
import { NetworkGenerationError } from './network-generation-error.js';

/** A new network in ARK 3.0's file formats, and the delegates' secrets. */
export interface GeneratedNetwork {
  /** crypto/network.json */
  readonly network: NetworkParams;
  /** crypto/milestones.json */
  readonly milestones: MilestoneEntry[];
  /** crypto/genesisBlock.json */
  readonly genesisBlock: BlockJson;
  /** The delegates' passphrases in registration order (delegates.json `secrets`). */
  readonly secrets: string[];
}

/**
 * Generates a network: milestones, N delegate wallets, and a signed genesis block that transfers
 * the premine (to the given balances, or evenly to the delegates), registers every delegate and
 * has each vote for itself. The nethash is the genesis payload hash, as in ARK. The genesis block
 * is verified before it is returned.
 */
export function generateNetwork(options: GenerateNetworkOptions): GeneratedNetwork {
  const resolved = resolveNetworkOptions(options);
  const milestoneEntries = networkMilestones(resolved);
  const milestones = new Milestones(milestoneEntries);
  const premineWallet = genesisWallet(resolved.createSecret(), resolved.pubKeyHash);
  const delegates = Array.from({ length: resolved.delegates }, () =>
    genesisWallet(resolved.createSecret(), resolved.pubKeyHash),
  );
  const balances =
    resolved.balances ??
    evenBalances(
      resolved.premine,
      delegates.map((delegate) => delegate.address),
    );
  checkBalances(balances, resolved.pubKeyHash, options.premine);

  const block = forgeBlock({
    transactions: genesisTransactions({
      premineWallet,
      balances,
      delegates,
      pubKeyHash: resolved.pubKeyHash,
    }),
    timestamp: 0,
    keys: premineWallet.keys,
    milestones,
  });
  const verification = verifyBlock(block, milestones);
  if (!verification.verified) {
    const reasons = verification.failures.map((failure) => `${failure.rule}: ${failure.message}`);
    throw new NetworkGenerationError(`genesis block does not verify: ${reasons.join('; ')}`);
  }
  return {
    network: networkParams(resolved, block.payloadHash),
    milestones: milestoneEntries,
    genesisBlock: blockToJson(block),
    secrets: delegates.map((delegate) => delegate.passphrase),
  };
}

function checkBalances(
  balances: readonly InitialBalance[],
  pubKeyHash: number,
  premine: bigint | undefined,
): void {
  balances.forEach((balance, index) => {
    if (!isValidAddress(balance.address, pubKeyHash)) {
      throw new NetworkGenerationError(
        `balances[${index}].address: not an address of pubKeyHash ${pubKeyHash}`,
      );
    }
  });
  const total = balances.reduce((sum, balance) => sum + balance.amount, 0n);
  if (premine !== undefined && total !== premine) {
    throw new NetworkGenerationError(`premine: ${premine}, but the balances add up to ${total}`);
  }
}
