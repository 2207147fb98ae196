/**
 * The routes of ARK Core 3.x's P2P protocol. A request names its route by id in the frame's
 * path (`p2p.peer.getStatus`); ARK also accepts the route's path (`/p2p/peer/getStatus`).
 */
export const PUBLIC_ROUTES = [
  'getStatus',
  'getPeers',
  'getCommonBlocks',
  'getBlocks',
  'postBlock',
  'postTransactions',
] as const;
export type PublicRoute = (typeof PUBLIC_ROUTES)[number];

/** Forger ↔ relay routes, JSON payloads, allowed only from `remoteAccess` IPs. */
export const INTERNAL_ROUTES = [
  'getCurrentRound',
  'getNetworkState',
  'getUnconfirmedTransactions',
  'syncBlockchain',
  'emitEvent',
] as const;
export type InternalRoute = (typeof INTERNAL_ROUTES)[number];

export type RouteName = PublicRoute | InternalRoute;
export const ROUTE_NAMES: readonly RouteName[] = [...PUBLIC_ROUTES, ...INTERNAL_ROUTES];

const groups: Record<RouteName, string> = {
  getStatus: 'peer',
  getPeers: 'peer',
  getCommonBlocks: 'peer',
  getBlocks: 'blocks',
  postBlock: 'blocks',
  postTransactions: 'transactions',
  getCurrentRound: 'internal',
  getNetworkState: 'internal',
  getUnconfirmedTransactions: 'internal',
  syncBlockchain: 'internal',
  emitEvent: 'internal',
};

export const routeId = (name: RouteName): string => `p2p.${groups[name]}.${name}`;

const byPath = new Map<string, RouteName>(
  ROUTE_NAMES.flatMap((name) => [
    [routeId(name), name],
    [`/p2p/${groups[name]}/${name}`, name],
  ]),
);

/** The route a frame's path names, by id or by path; undefined for any other path. */
export const routeOfPath = (path: string): RouteName | undefined => byPath.get(path);

export const isInternalRoute = (name: RouteName): name is InternalRoute =>
  groups[name] === 'internal';

const KIB = 1024;
const MIB = 1024 * KIB;

/** The largest websocket message either side accepts: ARK's server `maxPayload`. */
export const MAX_MESSAGE_BYTES = 20 * MIB;

/** Request payload limits per route, as ARK's routes set them (hapi's 1 MiB for internal ones). */
export const MAX_REQUEST_BYTES: Readonly<Record<RouteName, number>> = {
  getStatus: KIB,
  getPeers: KIB,
  getCommonBlocks: 10 * KIB,
  getBlocks: KIB,
  postBlock: MAX_MESSAGE_BYTES,
  postTransactions: MAX_MESSAGE_BYTES,
  getCurrentRound: MIB,
  getNetworkState: MIB,
  getUnconfirmedTransactions: MIB,
  syncBlockchain: MIB,
  emitEvent: MIB,
};

/**
 * Reply size limits of ARK's clients: 100 KiB unless raised for the route; a larger reply closes
 * their connection. Our server keeps under them, and our client refuses larger replies.
 */
export const MAX_REPLY_BYTES: Readonly<Record<RouteName, number>> = {
  getStatus: 100 * KIB,
  getPeers: 100 * KIB,
  getCommonBlocks: 100 * KIB,
  getBlocks: MAX_MESSAGE_BYTES,
  postBlock: 100 * KIB,
  postTransactions: 100 * KIB,
  getCurrentRound: MAX_MESSAGE_BYTES,
  getNetworkState: MAX_MESSAGE_BYTES,
  getUnconfirmedTransactions: MAX_MESSAGE_BYTES,
  syncBlockchain: MAX_MESSAGE_BYTES,
  emitEvent: MAX_MESSAGE_BYTES,
};

/** The status code ARK answers instead of closing the socket: "not ready yet". */
export const GRACEFUL_ERROR_STATUS = 499;
