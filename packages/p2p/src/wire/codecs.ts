import { headerToWire, isBlockId } from '@lni/crypto';
import { parseAddress } from '@lni/kernel';
import type { BlockReference } from '@lni/crypto';
import type {
  BlocksRequest,
  CommonBlocksReply,
  CommonBlocksRequest,
  PeerAddressEntry,
  PeersRequest,
  PostBlockReply,
  PostBlockRequest,
  PostTransactionsReply,
  PostTransactionsRequest,
  RequestHeaders,
  StatusReply,
  StatusRequest,
  WireBlock,
} from './messages.js';
import { packLengthPrefixed, unpackLengthPrefixed } from './packing.js';
import { headerFromPeer } from './peer-header.js';
import { messageTypes, type MessageTypeName } from './schema.js';
import { WireError } from './wire-error.js';

/** Encodes and decodes one route's request and reply; decoders check what they read. */
export interface RouteCodec<Request, Reply> {
  encodeRequest(request: Request): Buffer;
  decodeRequest(bytes: Uint8Array): Request;
  encodeReply(reply: Reply): Buffer;
  decodeReply(bytes: Uint8Array): Reply;
}

/** ARK's getBlocks answers hold at most 400 blocks; its decoders stop at 500 transactions each. */
export const MAX_BLOCKS_PER_REPLY = 400;
export const MAX_TRANSACTIONS_PER_WIRE_BLOCK = 500;
/** ARK's getCommonBlocks takes 1 to 10 ids. */
export const MAX_COMMON_BLOCK_IDS = 10;
/** ARK's getPeers answers list at most 2000 peers. */
export const MAX_PEERS_PER_REPLY = 2000;
/** A hard cap while decoding postTransactions; the server's option is the real limit. */
const MAX_TRANSACTIONS_DECODED = 1000;

type Fields = Readonly<Record<string, unknown>>;

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function encode(type: MessageTypeName, value: object): Buffer {
  return asBuffer(messageTypes[type].encode(value).finish());
}

/** Decodes; protobufjs errors (truncation, bad wire types, nesting) become WireErrors. */
function decode(type: MessageTypeName, bytes: Uint8Array): Fields {
  try {
    return messageTypes[type].decode(bytes) as unknown as Fields;
  } catch (error) {
    throw new WireError(`${type}: ${(error as Error).message}`);
  }
}

/** A field read through the message's prototype defaults, as a nested message or undefined. */
function nested(fields: Fields, name: string): Fields | undefined {
  const value = fields[name];
  return value === null || value === undefined ? undefined : (value as Fields);
}

/** A bytes field; an absent one reads as protobufjs's default, an empty array. */
function bytesOf(fields: Fields, name: string): Buffer {
  const value = fields[name];
  return value instanceof Uint8Array ? asBuffer(value) : Buffer.alloc(0);
}

function headersOf(fields: Fields): RequestHeaders | undefined {
  const headers = nested(fields, 'headers');
  const version = headers?.['version'];
  if (!headers || version === null || version === undefined) return undefined;
  if (typeof version !== 'string' || version.length > 64) {
    throw new WireError('headers.version is not a version string');
  }
  const port = headers['port'];
  return typeof port === 'number' && port > 0 && port <= 65_535 ? { version, port } : { version };
}

function integerIn(fields: Fields, name: string, min: number, max: number, what: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new WireError(`${what}.${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export const getStatusCodec: RouteCodec<StatusRequest, StatusReply> = {
  encodeRequest: (request) => encode('GetStatusRequest', request),
  decodeRequest: (bytes) => {
    const headers = headersOf(decode('GetStatusRequest', bytes));
    return headers ? { headers } : {};
  },
  encodeReply: ({ state, config }) =>
    encode('GetStatusResponse', {
      state: { ...state, header: headerToWire(state.header) },
      config,
    }),
  decodeReply: (bytes) => {
    const fields = decode('GetStatusResponse', bytes);
    const state = nested(fields, 'state');
    const config = nested(fields, 'config');
    const network = config && nested(config, 'network');
    const token = network && nested(network, 'token');
    const header = state && nested(state, 'header');
    if (!state || !config || !network || !token || !header) {
      throw new WireError('getStatus reply lacks state, config, network, token or header');
    }
    const height = integerIn(state, 'height', 1, 0xffff_ffff, 'state');
    const parsedHeader = headerFromPeer(header, 'state.header');
    if (parsedHeader.height !== height) {
      throw new WireError(
        `state.height ${height} differs from its header's ${parsedHeader.height}`,
      );
    }
    const text = (from: Fields, name: string, min: number, max: number): string => {
      // Informational fields an older encoder left off when empty read as empty.
      const value = from[name] ?? (min === 0 ? '' : undefined);
      if (typeof value !== 'string' || value.length < min || value.length > max) {
        throw new WireError(`status ${name} must be a string of ${min} to ${max} characters`);
      }
      return value;
    };
    const nethash = text(network, 'nethash', 64, 64);
    if (!/^[0-9a-f]{64}$/i.test(nethash)) throw new WireError('status nethash is not hex');
    return {
      state: {
        height,
        forgingAllowed: state['forgingAllowed'] === true,
        currentSlot: integerIn(state, 'currentSlot', 0, 0xffff_ffff, 'state'),
        header: parsedHeader,
      },
      // ARK's schema bounds these informational fields tighter; a peer is not refused for them.
      config: {
        version: text(config, 'version', 5, 24),
        network: {
          name: text(network, 'name', 1, 64),
          nethash,
          explorer: text(network, 'explorer', 0, 256),
          token: { name: text(token, 'name', 0, 64), symbol: text(token, 'symbol', 0, 16) },
          version: integerIn(network, 'version', 0, 255, 'network'),
        },
        plugins: pluginsOf(config['plugins']),
      },
    };
  },
};

function pluginsOf(value: unknown): StatusReply['config']['plugins'] {
  const plugins: Record<string, { port: number; enabled: boolean; estimateTotalCount?: boolean }> =
    {};
  if (value === null || typeof value !== 'object') return plugins;
  const entries = Object.entries(value as Record<string, Fields>);
  if (entries.length > 32) throw new WireError('status lists more than 32 plugins');
  for (const [name, plugin] of entries) {
    const port = plugin['port'];
    if (typeof port !== 'number' || port > 65_535) {
      throw new WireError(`plugin ${name.slice(0, 64)} has no valid port`);
    }
    // A map decodes into a plain object: a key such as __proto__ must not reach its prototype.
    Object.defineProperty(plugins, name, {
      value: { port, enabled: plugin['enabled'] === true },
      enumerable: true,
      writable: true,
    });
  }
  return plugins;
}

export const getPeersCodec: RouteCodec<PeersRequest, readonly PeerAddressEntry[]> = {
  encodeRequest: (request) => encode('GetPeersRequest', request),
  decodeRequest: (bytes) => {
    const headers = headersOf(decode('GetPeersRequest', bytes));
    return headers ? { headers } : {};
  },
  encodeReply: (peers) => encode('GetPeersResponse', { peers }),
  decodeReply: (bytes) => {
    const peers = decode('GetPeersResponse', bytes)['peers'] as readonly Fields[];
    if (peers.length > MAX_PEERS_PER_REPLY) {
      throw new WireError(`getPeers reply lists more than ${MAX_PEERS_PER_REPLY} peers`);
    }
    return peers.map((peer, index) => {
      const text = peer['ip'];
      // Only addresses, in one form: `127.1` or a host name would be dialled wherever the
      // resolver says, past the local-range check of discovery.
      const ip = typeof text === 'string' && text.length <= 45 ? parseAddress(text) : undefined;
      if (ip === undefined) throw new WireError(`peers[${index}].ip is not an address`);
      return { ip: ip.toString(), port: integerIn(peer, 'port', 0, 65_535, `peers[${index}]`) };
    });
  },
};

export const getCommonBlocksCodec: RouteCodec<CommonBlocksRequest, CommonBlocksReply> = {
  encodeRequest: (request) => encode('GetCommonBlocksRequest', request),
  decodeRequest: (bytes) => {
    const fields = decode('GetCommonBlocksRequest', bytes);
    const ids = fields['ids'] as readonly string[];
    if (ids.length < 1 || ids.length > MAX_COMMON_BLOCK_IDS) {
      throw new WireError(`ids must list 1 to ${MAX_COMMON_BLOCK_IDS} block ids`);
    }
    ids.forEach((id, index) => {
      if (!isBlockId(id)) throw new WireError(`ids[${index}] is not a block id`);
    });
    const headers = headersOf(fields);
    return headers ? { ids, headers } : { ids };
  },
  // No common block is an empty reply: ARK reads the absent field as `common: null`.
  encodeReply: ({ common }) => encode('GetCommonBlocksResponse', common ? { common } : {}),
  decodeReply: (bytes) => {
    const common = nested(decode('GetCommonBlocksResponse', bytes), 'common');
    if (!common) return { common: null };
    const id = common['id'];
    if (typeof id !== 'string' || !isBlockId(id))
      throw new WireError('common.id is not a block id');
    const reference: BlockReference = {
      id,
      height: integerIn(common, 'height', 1, 0xffff_ffff, 'common'),
    };
    return { common: reference };
  },
};

export const getBlocksCodec: RouteCodec<BlocksRequest, readonly WireBlock[]> = {
  encodeRequest: ({ headersOnly, ...request }) =>
    // `serialized` is what ARK's own clients send; its servers ignore it.
    encode('GetBlocksRequest', { ...request, headersOnly, serialized: true }),
  decodeRequest: (bytes) => {
    const fields = decode('GetBlocksRequest', bytes);
    const headers = headersOf(fields);
    return {
      lastBlockHeight: integerIn(fields, 'lastBlockHeight', 1, 0xffff_ffff, 'getBlocks'),
      blockLimit: integerIn(fields, 'blockLimit', 1, MAX_BLOCKS_PER_REPLY, 'getBlocks'),
      headersOnly: fields['headersOnly'] === true,
      ...(headers && { headers }),
    };
  },
  // Not a protobuf envelope: per block a u32 big-endian length, then its BlockHeader.
  encodeReply: (blocks) =>
    packLengthPrefixed(
      blocks.map(({ header, transactions }) =>
        messageTypes.BlockHeader.encode({
          ...headerToWire(header),
          transactions: packLengthPrefixed(transactions),
        }).finish(),
      ),
    ),
  decodeReply: (bytes) =>
    unpackLengthPrefixed(asBuffer(bytes), MAX_BLOCKS_PER_REPLY, 'blocks').map((encoded, index) => {
      const fields = decode('BlockHeader', encoded);
      const what = `blocks[${index}]`;
      const transactions = unpackLengthPrefixed(
        bytesOf(fields, 'transactions'),
        MAX_TRANSACTIONS_PER_WIRE_BLOCK,
        `${what}.transactions`,
      );
      return { header: headerFromPeer(fields, what), transactions };
    }),
};

export const postBlockCodec: RouteCodec<PostBlockRequest, PostBlockReply> = {
  encodeRequest: ({ block, headers, hops }) =>
    encode('PostBlockRequest', { block, ...(headers && { headers }), hops }),
  decodeRequest: (bytes) => {
    const fields = decode('PostBlockRequest', bytes);
    const block = bytesOf(fields, 'block');
    if (block.byteLength === 0) throw new WireError('postBlock carries no block');
    const headers = headersOf(fields);
    return {
      block,
      hops: integerIn(fields, 'hops', 0, 255, 'postBlock'),
      ...(headers && { headers }),
    };
  },
  encodeReply: (reply) => encode('PostBlockResponse', reply),
  decodeReply: (bytes) => {
    const fields = decode('PostBlockResponse', bytes);
    const verdict = fields['verdict'];
    const reason = fields['reason'];
    const known = verdict === 'accepted' || verdict === 'known' || verdict === 'rejected';
    return {
      status: fields['status'] === true,
      height: integerIn(fields, 'height', 0, 0xffff_ffff, 'postBlock reply'),
      ...(known && { verdict }),
      ...(typeof reason === 'string' && reason !== '' && { reason: reason.slice(0, 500) }),
    };
  },
};

export const postTransactionsCodec: RouteCodec<PostTransactionsRequest, PostTransactionsReply> = {
  encodeRequest: ({ transactions, headers, hops }) =>
    encode('PostTransactionsRequest', {
      transactions: packLengthPrefixed(transactions),
      ...(headers && { headers }),
      hops,
    }),
  decodeRequest: (bytes) => {
    const fields = decode('PostTransactionsRequest', bytes);
    const headers = headersOf(fields);
    return {
      transactions: unpackLengthPrefixed(
        bytesOf(fields, 'transactions'),
        MAX_TRANSACTIONS_DECODED,
        'transactions',
      ),
      hops: integerIn(fields, 'hops', 0, 255, 'postTransactions'),
      ...(headers && { headers }),
    };
  },
  encodeReply: (reply) => encode('PostTransactionsResponse', reply),
  decodeReply: (bytes) => {
    const fields = decode('PostTransactionsResponse', bytes);
    const accept = fields['accept'] as readonly unknown[];
    const invalid = fields['invalid'] as readonly Fields[];
    if (accept.length > MAX_TRANSACTIONS_DECODED || invalid.length > MAX_TRANSACTIONS_DECODED) {
      throw new WireError('postTransactions reply lists too many transactions');
    }
    return {
      accept: accept.map((id, index) => {
        if (typeof id !== 'string' || !/^[0-9a-f]{64}$/i.test(id)) {
          throw new WireError(`accept[${index}] is not a transaction id`);
        }
        return id;
      }),
      invalid: invalid.map((entry, index) => ({
        index: integerIn(entry, 'index', 0, MAX_TRANSACTIONS_DECODED, `invalid[${index}]`),
        reason: String(entry['reason']).slice(0, 500),
      })),
    };
  },
};
