/** The events the `p2p` plugin publishes on the kernel's bus. */
declare module '@lni/kernel' {
  interface EventMap {
    'peer.added': { readonly ip: string; readonly port: number };
    'peer.removed': { readonly ip: string; readonly port: number; readonly reason: string };
    /** A forger reported what it did through emitEvent (`block.forged`, `forger.failed`, …). */
    'forger.event': { readonly event: string; readonly body: Readonly<Record<string, unknown>> };
  }
}

export {};
