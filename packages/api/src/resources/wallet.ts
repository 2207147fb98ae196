import type { FieldCatalog } from '../query/fields.js';
import { toJsonValue, type JsonValue } from './json-values.js';
import type { WalletView } from '@lni/state/contracts';

/**
 * The spec's wallet object. There is no `isDelegate`: clients read `attributes.delegate`. A
 * wallet whose public key is not known yet (it never signed) has no `publicKey`, as in ARK 3.
 */
export interface WalletResource {
  readonly address: string;
  readonly publicKey?: string;
  readonly balance: string;
  readonly nonce: string;
  readonly attributes: { readonly [key: string]: JsonValue };
}

export function walletResource(wallet: WalletView): WalletResource {
  return {
    address: wallet.address,
    ...(wallet.publicKey !== undefined && { publicKey: wallet.publicKey }),
    balance: wallet.balance.toString(),
    nonce: wallet.nonce.toString(),
    attributes: toJsonValue(wallet.attributes) as { [key: string]: JsonValue },
  };
}

/** Every field of the wallet object a client may filter and order on, by its JSON path. */
export const walletCatalog: FieldCatalog = {
  address: { type: 'string' },
  publicKey: { type: 'string' },
  balance: { type: 'amount' },
  nonce: { type: 'amount' },
  'attributes.delegate.username': { type: 'string' },
  'attributes.delegate.voteBalance': { type: 'amount' },
  'attributes.delegate.forgedFees': { type: 'amount' },
  'attributes.delegate.forgedRewards': { type: 'amount' },
  'attributes.delegate.producedBlocks': { type: 'integer' },
  'attributes.delegate.missedBlocks': { type: 'integer' },
  'attributes.delegate.rank': { type: 'integer' },
  'attributes.delegate.resigned': { type: 'boolean' },
  'attributes.delegate.lastBlock.id': { type: 'string' },
  'attributes.delegate.lastBlock.height': { type: 'integer' },
  'attributes.vote': { type: 'string' },
  'attributes.secondPublicKey': { type: 'string' },
  'attributes.multiSignature.min': { type: 'integer' },
  'attributes.htlc.lockedBalance': { type: 'amount' },
};
