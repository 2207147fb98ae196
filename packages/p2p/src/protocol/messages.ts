import Joi from 'joi';
import type { BlockHeader, BlockReference } from '../chain-port.js';

/** Largest batch a peer may ask for in one getBlocks. */
export const MAX_BLOCKS_PER_REQUEST = 400;
export const MAX_TRANSACTIONS_PER_POST = 40;
export const MAX_COMMON_BLOCK_IDS = 20;
export const MAX_PEERS_PER_ANSWER = 500;

// ARK's ids are the decimal of 8 bytes of the hash until the idFullSha256 milestone, 64 hex after.
const blockId = Joi.string().pattern(/^(?:[0-9a-fA-F]{64}|\d{1,20})$/, 'block id');
// A pattern rather than joi's hex({ byteAligned }), which would pad an odd-length string.
const hexBytes = (maxBytes: number) =>
  Joi.string()
    .pattern(/^(?:[0-9a-fA-F]{2})+$/, 'hex bytes')
    .max(maxBytes * 2);
const amount = Joi.string().pattern(/^\d{1,20}$/, 'integer string');
const publicKey = Joi.string().hex().length(66);

export const blockHeaderSchema = Joi.object<BlockHeader>({
  id: blockId.required(),
  height: Joi.number().integer().min(1).required(),
  version: Joi.number().integer().min(0).required(),
  timestamp: Joi.number().integer().min(0).required(),
  previousBlock: blockId.allow(null).required(),
  numberOfTransactions: Joi.number().integer().min(0).required(),
  totalAmount: amount.required(),
  totalFee: amount.required(),
  reward: amount.required(),
  payloadLength: Joi.number().integer().min(0).required(),
  payloadHash: Joi.string().hex().length(64).required(),
  generatorPublicKey: publicKey.required(),
  blockSignature: Joi.string().hex().max(144),
});

export interface StatusResponse {
  readonly height: number;
  readonly header: BlockHeader;
  readonly network: { readonly name: string; readonly nethash: string };
  readonly version: string;
  readonly ports: Readonly<Record<string, number>>;
}

export const statusResponseSchema = Joi.object<StatusResponse>({
  height: Joi.number().integer().min(1).required(),
  header: blockHeaderSchema.required(),
  network: Joi.object({
    name: Joi.string().max(40).required(),
    nethash: Joi.string().hex().length(64).required(),
  }).required(),
  version: Joi.string().max(40).required(),
  ports: Joi.object().pattern(Joi.string().max(40), Joi.number().port()).max(20).required(),
});

export interface PeerListEntry {
  readonly ip: string;
  readonly port: number;
  readonly height?: number;
  readonly version?: string;
}

export const peersResponseSchema = Joi.array()
  .items(
    Joi.object<PeerListEntry>({
      ip: Joi.string().ip({ cidr: 'forbidden' }).required(),
      port: Joi.number().port().required(),
      height: Joi.number().integer().min(1),
      version: Joi.string().max(40),
    }),
  )
  .max(MAX_PEERS_PER_ANSWER);

export interface CommonBlocksRequest {
  readonly ids: readonly string[];
}

export const commonBlocksRequestSchema = Joi.object<CommonBlocksRequest>({
  ids: Joi.array().items(blockId).min(1).max(MAX_COMMON_BLOCK_IDS).unique().required(),
});

export interface CommonBlocksResponse {
  readonly common: BlockReference | null;
  readonly lastBlockHeight: number;
}

export const commonBlocksResponseSchema = Joi.object<CommonBlocksResponse>({
  common: Joi.object({
    id: blockId.required(),
    height: Joi.number().integer().min(1).required(),
  })
    .allow(null)
    .required(),
  lastBlockHeight: Joi.number().integer().min(1).required(),
});

export interface BlocksRequest {
  readonly fromHeight: number;
  readonly limit: number;
}

export const blocksRequestSchema = Joi.object<BlocksRequest>({
  fromHeight: Joi.number().integer().min(1).required(),
  limit: Joi.number().integer().min(1).max(MAX_BLOCKS_PER_REQUEST).default(MAX_BLOCKS_PER_REQUEST),
});

/** A block with up to 5 MB of payload, as the largest ARK 3.0 milestone allows. */
const MAX_BLOCK_BYTES = 5 * 1024 * 1024;
const MAX_TRANSACTION_BYTES = 64 * 1024;

export const blocksResponseSchema = Joi.array()
  .items(hexBytes(MAX_BLOCK_BYTES))
  .max(MAX_BLOCKS_PER_REQUEST);

/** Most times a block or transaction is passed on from node to node. */
export const MAX_HOPS = 10;
/** How many nodes passed the message on before it reached us; 0 from its origin. */
const hops = Joi.number().integer().min(0).max(MAX_HOPS).default(0);

export interface PostBlockRequest {
  readonly block: string;
  readonly hops: number;
}

export const postBlockRequestSchema = Joi.object<PostBlockRequest>({
  block: hexBytes(MAX_BLOCK_BYTES).required(),
  hops,
});

export interface PostBlockResponse {
  readonly status: 'accepted' | 'known' | 'rejected';
  /** Why the ledger did not take it (not the next block, say); only with `rejected`. */
  readonly reason?: string;
  readonly height: number;
}

export interface PostTransactionsRequest {
  readonly transactions: readonly string[];
  readonly hops: number;
}

export const postTransactionsRequestSchema = Joi.object<PostTransactionsRequest>({
  transactions: Joi.array()
    .items(hexBytes(MAX_TRANSACTION_BYTES))
    .min(1)
    .max(MAX_TRANSACTIONS_PER_POST)
    .required(),
  hops,
});

export interface PostTransactionsResponse {
  readonly accepted: readonly string[];
  readonly invalid: readonly { readonly index: number; readonly reason: string }[];
}

export const postBlockResponseSchema = Joi.object<PostBlockResponse>({
  status: Joi.string().valid('accepted', 'known', 'rejected').required(),
  reason: Joi.string().max(1_000),
  height: Joi.number().integer().min(0).required(),
});

export const postTransactionsResponseSchema = Joi.object<PostTransactionsResponse>({
  accepted: Joi.array()
    .items(Joi.string().hex().length(64))
    .max(MAX_TRANSACTIONS_PER_POST)
    .required(),
  invalid: Joi.array()
    .items(
      Joi.object({
        index: Joi.number().integer().min(0).required(),
        reason: Joi.string().required(),
      }),
    )
    .max(MAX_TRANSACTIONS_PER_POST)
    .required(),
});

/** getNetworkState: the NetworkState of `forging/forging-port.ts` as JSON. */
export interface NetworkStateResponse {
  readonly nodeHeight: number;
  readonly networkHeight: number;
  readonly peers: number;
  readonly quorum: number;
  readonly blocksAboveHeight: readonly {
    readonly id: string;
    readonly height: number;
    readonly generatorPublicKey: string;
  }[];
}

export const networkStateResponseSchema = Joi.object<NetworkStateResponse>({
  nodeHeight: Joi.number().integer().min(0).required(),
  networkHeight: Joi.number().integer().min(0).required(),
  peers: Joi.number().integer().min(0).required(),
  quorum: Joi.number().min(0).max(1).required(),
  blocksAboveHeight: Joi.array()
    .items(
      Joi.object({
        id: blockId.required(),
        height: Joi.number().integer().min(1).required(),
        generatorPublicKey: publicKey.required(),
      }),
    )
    .max(MAX_PEERS_PER_ANSWER)
    .required(),
});

/** getCurrentRound: the ForgingRound of `forging/forging-port.ts`, the reward as a decimal string. */
export interface CurrentRoundResponse {
  readonly round: number;
  readonly reward: string;
  readonly slotTimestamp: number;
  readonly canForge: boolean;
  readonly currentForger: string;
  readonly nextForger: string;
  readonly lastBlock: BlockReference;
  readonly msUntilNextSlot: number;
}

export const currentRoundResponseSchema = Joi.object<CurrentRoundResponse>({
  round: Joi.number().integer().min(1).required(),
  reward: amount.required(),
  slotTimestamp: Joi.number().integer().min(0).required(),
  canForge: Joi.boolean().required(),
  currentForger: publicKey.required(),
  nextForger: publicKey.required(),
  lastBlock: Joi.object({
    id: blockId.required(),
    height: Joi.number().integer().min(1).required(),
  }).required(),
  msUntilNextSlot: Joi.number().min(0).required(),
});

/** getTransactionsForForging: serialized transactions for the next block, best first. */
export const transactionsForForgingResponseSchema = Joi.array().items(
  hexBytes(MAX_TRANSACTION_BYTES),
);

/** Payload bytes a route accepts; larger bodies are refused before parsing (413). */
export const MAX_MESSAGE_BYTES = {
  small: 64 * 1024,
  postBlock: MAX_BLOCK_BYTES * 2 + 1024,
  postTransactions: MAX_TRANSACTIONS_PER_POST * MAX_TRANSACTION_BYTES * 2 + 1024,
} as const;
