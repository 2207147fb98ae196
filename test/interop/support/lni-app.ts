/**
 * An LNI app.json for a node of these test networks: the modes of the default one, with
 * options for the p2p and forger plugins. Every node here is one of few peers, so the network
 * state's minimum reach is 1 (ARK's nodes get CORE_P2P_MIN_NETWORK_REACH=1 likewise).
 */
export function lniApp(
  options: {
    readonly p2p?: Readonly<Record<string, unknown>>;
    readonly forger?: Readonly<Record<string, unknown>>;
  } = {},
): unknown {
  const p2p = { package: '@lni/p2p', options: { minimumNetworkReach: 1, ...options.p2p } };
  const forger = { package: '@lni/forger', options: { ...options.forger } };
  const ledger = [
    { package: '@lni/database', options: {} },
    { package: '@lni/state', options: {} },
    p2p,
    { package: '@lni/api', options: {} },
  ];
  return {
    core: { plugins: [...ledger, forger] },
    relay: { plugins: ledger },
    forger: { plugins: [forger] },
  };
}
