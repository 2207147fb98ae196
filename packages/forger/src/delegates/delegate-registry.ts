/**
 * The registered delegates as the forger asks about them when the ledger runs in the same
 * process (core mode): the `state` plugin registers this shape as `forgerDelegates`. A forger
 * process on its own has no ledger, and its relays' protocol does not list delegates.
 */
export interface DelegateRegistry {
  /** Height of the ledger's last block: what "registered" is judged at. */
  height(): number;
  /** The delegate registered with this public key (hex), or undefined when there is none. */
  delegate(
    publicKey: string,
  ): { readonly username: string; readonly resigned: boolean } | undefined;
}

declare module '@lni/kernel' {
  interface Cradle {
    readonly forgerDelegates: DelegateRegistry;
  }
}
