declare module '@lni/kernel' {
  interface EventMap {
    'peer.added': { readonly ip: string; readonly port: number };
    'peer.removed': { readonly ip: string; readonly port: number; readonly reason: string };
  }
}

export {};
