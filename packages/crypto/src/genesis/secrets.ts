import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/** A random 12-word English BIP39 mnemonic, the kind of passphrase ARK wallets use. */
export function randomMnemonic(): string {
  return generateMnemonic(wordlist, 128);
}
