import {
  addressFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transactionToJson,
  transfer,
  type TransactionData,
} from '@lni/crypto';
import type { InteropNode } from './interop-node.js';

/**
 * A transfer from the wallet of `sender` (one of ARK testnet's genesis delegate secrets) to the
 * address of `recipientPassphrase`, signed with the next nonce `node`'s API gives that wallet.
 */
export async function signedTransfer(
  testnetCrypto: string,
  node: InteropNode,
  sender: string,
  recipientPassphrase: string,
  amount: number,
): Promise<{ tx: TransactionData; json: unknown; senderAddress: string; recipient: string }> {
  const network = loadNetworkConfig(testnetCrypto);
  const pubKeyHash = network.network.pubKeyHash;
  const senderAddress = addressFromPassphrase(sender, pubKeyHash);
  const wallet = (await node.api.get(`/wallets/${senderAddress}`)).data as { nonce: string };
  const recipient = addressFromPassphrase(recipientPassphrase, pubKeyHash);
  const milestone = new Milestones(network.milestones).at(await node.api.height());
  const tx = transfer({ network: pubKeyHash, milestone })
    .recipientId(recipient)
    .amount(amount)
    .nonce(BigInt(wallet.nonce) + 1n)
    .sign(sender)
    .build();
  return { tx, json: transactionToJson(tx), senderAddress, recipient };
}
