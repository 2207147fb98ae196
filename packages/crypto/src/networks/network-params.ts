/** `crypto/network.json` in ARK 3.0's layout: the constants that identify a network. */
export interface NetworkParams {
  readonly name: string;
  readonly messagePrefix: string;
  readonly bip32: { readonly public: number; readonly private: number };
  /** Version byte of addresses. */
  readonly pubKeyHash: number;
  /** Hex sha256 that peers compare; equal to the genesis block's payload hash. */
  readonly nethash: string;
  /** Version byte of WIF private keys. */
  readonly wif: number;
  readonly slip44: number;
  readonly aip20: number;
  readonly client: { readonly token: string; readonly symbol: string; readonly explorer: string };
  readonly burnAddress?: string;
  readonly [key: string]: unknown;
}
