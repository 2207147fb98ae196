/** The messages of the P2P protocol; each is a nes request route named `p2p.<group>.<name>`. */
export const MESSAGE_NAMES = [
  'getStatus',
  'getPeers',
  'getCommonBlocks',
  'getBlocks',
  'postBlock',
  'postTransactions',
  'getNetworkState',
  'getCurrentRound',
  'getTransactionsForForging',
] as const;

export type MessageName = (typeof MESSAGE_NAMES)[number];

const groups: Record<MessageName, string> = {
  getStatus: 'peer',
  getPeers: 'peer',
  getCommonBlocks: 'peer',
  getBlocks: 'blocks',
  postBlock: 'blocks',
  postTransactions: 'transactions',
  getNetworkState: 'internal',
  getCurrentRound: 'internal',
  getTransactionsForForging: 'internal',
};

/** Route id (`p2p.peer.getStatus`), which nes clients use as the request path. */
export const routeId = (name: MessageName): string => `p2p.${groups[name]}.${name}`;

/** HTTP path of the route (`/p2p/peer/getStatus`). */
export const routePath = (name: MessageName): string => `/p2p/${groups[name]}/${name}`;
