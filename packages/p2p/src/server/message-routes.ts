import Boom from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit, RouteOptions, ServerRoute } from '@hapi/hapi';
import Joi from 'joi';
import type { ChainPort, PeerAddress } from '../chain-port.js';
import type { ForgingPort, NetworkState } from '../forging/forging-port.js';
import { remoteAccessRule } from '../limits/remote-access.js';
import { normaliseIp } from '../limits/ip-matcher.js';
import { routeId, routePath, type MessageName } from '../protocol/message-names.js';
import {
  MAX_MESSAGE_BYTES,
  MAX_PEERS_PER_ANSWER,
  blocksRequestSchema,
  commonBlocksRequestSchema,
  postBlockRequestSchema,
  postTransactionsRequestSchema,
  type BlocksRequest,
  type CommonBlocksRequest,
  type CommonBlocksResponse,
  type CurrentRoundResponse,
  type NetworkStateResponse,
  type PeerListEntry,
  type PostBlockRequest,
  type PostBlockResponse,
  type PostTransactionsRequest,
  type PostTransactionsResponse,
  type StatusResponse,
} from '../protocol/messages.js';
import type { PeerRepository } from '../peers/peer-repository.js';
import { peerCredentials } from './handshake-auth.js';

export interface MessageRouteDependencies {
  readonly chain: ChainPort;
  readonly peers: PeerRepository;
  readonly version: string;
  readonly ports: Readonly<Record<string, number>>;
  readonly remoteAccess: readonly string[];
  /** The ledger's forging data (`p2pForging`), resolved when a forger asks; undefined when absent. */
  readonly forging: () => ForgingPort | undefined;
  readonly networkState: () => Promise<NetworkState>;
  /** What happens after the ledger judged a posted block or transactions (broadcast, sync). */
  readonly hooks?: MessageHooks;
}

export interface MessageHooks {
  blockAccepted?(blockHex: string, hops: number, from: PeerAddress): void;
  /** The ledger did not take a block (not the next one): we may be behind or on a fork. */
  blockRejected?(from: PeerAddress): void;
  transactionsAccepted?(transactionsHex: readonly string[], hops: number, from: PeerAddress): void;
}

const noPayload = Joi.object({}).allow(null);

/** The nes request routes of the protocol, one per message; `validate` rejects malformed payloads. */
export function messageRoutes(deps: MessageRouteDependencies): ServerRoute[] {
  const { chain, peers } = deps;
  const sender = (request: Request) => {
    const credentials = peerCredentials(request.auth.credentials);
    return { ip: normaliseIp(request.info.remoteAddress), port: credentials.port };
  };

  const internal = remoteAccessRule(deps.remoteAccess);
  const forgingPort = (): ForgingPort => {
    const port = deps.forging();
    if (!port) throw Boom.serverUnavailable('this node has no ledger to forge on (p2pForging)');
    return port;
  };

  return [
    route('getStatus', noPayload, (): StatusResponse => {
      const { height, header } = chain.status();
      return { height, header, network: chain.network, version: deps.version, ports: deps.ports };
    }),
    route('getPeers', noPayload, (): PeerListEntry[] =>
      peers
        .list()
        .slice(0, MAX_PEERS_PER_ANSWER)
        .map(({ ip, port, height, version }) => ({ ip, port, height, version })),
    ),
    route(
      'getCommonBlocks',
      commonBlocksRequestSchema,
      async (request): Promise<CommonBlocksResponse> => {
        const { ids } = request.payload as CommonBlocksRequest;
        const common = await chain.commonBlock(ids);
        return {
          common: common ? { id: common.id, height: common.height } : null,
          lastBlockHeight: chain.status().height,
        };
      },
    ),
    route('getBlocks', blocksRequestSchema, async (request) => {
      const { fromHeight, limit } = request.payload as BlocksRequest;
      return [...(await chain.blocksFrom(fromHeight, limit))];
    }),
    route(
      'postBlock',
      postBlockRequestSchema,
      async (request): Promise<PostBlockResponse> => {
        const from = sender(request);
        const { block, hops } = request.payload as PostBlockRequest;
        const verdict = await chain.acceptBlock(block, from);
        if (verdict.status === 'invalid') {
          peers.penalise(from.ip, 'invalidBlock', verdict.reason);
          throw Boom.badData(`invalid block: ${verdict.reason}`);
        }
        if (verdict.status === 'accepted') deps.hooks?.blockAccepted?.(block, hops, from);
        if (verdict.status === 'rejected') deps.hooks?.blockRejected?.(from);
        const height = chain.status().height;
        return verdict.status === 'rejected'
          ? { status: 'rejected', reason: verdict.reason, height }
          : { status: verdict.status, height };
      },
      { maxBytes: MAX_MESSAGE_BYTES.postBlock },
    ),
    route(
      'postTransactions',
      postTransactionsRequestSchema,
      async (request): Promise<PostTransactionsResponse> => {
        const { transactions, hops } = request.payload as PostTransactionsRequest;
        const from = sender(request);
        const verdict = await chain.acceptTransactions(transactions, from);
        const invalid = new Set(verdict.invalid.map((entry) => entry.index));
        const valid = transactions.filter((_hex, index) => !invalid.has(index));
        if (verdict.accepted.length > 0 && valid.length > 0) {
          deps.hooks?.transactionsAccepted?.(valid, hops, from);
        }
        return { accepted: [...verdict.accepted], invalid: [...verdict.invalid] };
      },
      { maxBytes: MAX_MESSAGE_BYTES.postTransactions },
    ),
    route('getNetworkState', noPayload, (): Promise<NetworkStateResponse> => deps.networkState(), {
      extra: internal,
    }),
    route(
      'getCurrentRound',
      noPayload,
      async (): Promise<CurrentRoundResponse> => {
        const round = await forgingPort().currentRound();
        return { ...round, reward: round.reward.toString() };
      },
      { extra: internal },
    ),
    route(
      'getTransactionsForForging',
      noPayload,
      async (): Promise<string[]> => [...(await forgingPort().transactionsForForging())],
      { extra: internal },
    ),
  ];
}

function route(
  name: MessageName,
  payload: Joi.Schema,
  handler: (request: Request) => unknown,
  {
    maxBytes = MAX_MESSAGE_BYTES.small,
    extra = {},
  }: { maxBytes?: number; extra?: RouteOptions } = {},
): ServerRoute {
  return {
    method: 'POST',
    path: routePath(name),
    options: {
      ...extra,
      id: routeId(name),
      payload: { maxBytes, parse: true, output: 'data' },
      validate: { payload: payload.label('payload'), failAction: rejectMalformed },
      handler: handler as Lifecycle.Method,
    },
  };
}

/** Answers 400 naming the field; the server's response hook penalises the sender. */
function rejectMalformed(
  request: Request,
  _h: ResponseToolkit,
  error?: Error,
): Lifecycle.ReturnValue {
  throw Boom.badRequest(
    `${request.route.settings.id ?? request.path}: ${error?.message ?? 'malformed payload'}`,
  );
}
