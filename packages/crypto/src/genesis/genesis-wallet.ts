import { addressFromPublicKey } from '../identities/address.js';
import { keysFromPassphrase, type KeyPair } from '../identities/keys.js';

/** A wallet created for a new network: its secret, keys and address. */
export interface GenesisWallet {
  readonly passphrase: string;
  readonly keys: KeyPair;
  readonly address: string;
}

export function genesisWallet(passphrase: string, pubKeyHash: number): GenesisWallet {
  const keys = keysFromPassphrase(passphrase);
  return { passphrase, keys, address: addressFromPublicKey(keys.publicKey, pubKeyHash) };
}
