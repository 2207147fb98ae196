import Joi from 'joi';

/**
 * The forger ↔ relay routes (`p2p.internal.*`) carry JSON in ARK Core 3.x's shapes, so an LNI
 * forger works with an ARK relay and an ARK forger with an LNI relay. The schemas check what a
 * forger reads and let other fields pass. getCurrentRound's shape is in current-round.ts.
 */

/** A compressed public key as hex, as the internal routes carry delegates and generators. */
export const publicKeyRule = Joi.string().hex().length(66);

/** ARK's NetworkStateStatus. */
export const NetworkStatus = {
  Default: 0,
  BelowMinimumPeers: 1,
  Test: 2,
  ColdStart: 3,
  Unknown: 4,
} as const;
export type NetworkStatusCode = (typeof NetworkStatus)[keyof typeof NetworkStatus];

/** A block header a peer above us holds, as the quorum details list them by id. */
export interface OverHeightHeader {
  readonly id: string;
  readonly height: number;
  readonly generatorPublicKey: string;
}

export interface QuorumDetails {
  /** Peers at or below our height, on our chain. */
  readonly peersQuorum: number;
  /** Peers above our height or on another chain. */
  readonly peersNoQuorum: number;
  readonly peersOverHeight: number;
  readonly peersOverHeightBlockHeaders: Readonly<Record<string, OverHeightHeader>>;
  readonly peersForked: number;
  readonly peersDifferentSlot: number;
  readonly peersForgingNotAllowed: number;
}

export interface NetworkStateReply {
  readonly status: NetworkStatusCode;
  readonly nodeHeight?: number;
  readonly lastBlockId?: string;
  readonly quorumDetails: QuorumDetails;
}

const count = Joi.number().integer().min(0).default(0);

export const networkStateReplySchema = Joi.object<NetworkStateReply>({
  status: Joi.number()
    .valid(...Object.values(NetworkStatus))
    .required(),
  nodeHeight: Joi.number().integer().min(1),
  lastBlockId: Joi.string().max(64),
  quorumDetails: Joi.object({
    peersQuorum: count,
    peersNoQuorum: count,
    peersOverHeight: count,
    peersOverHeightBlockHeaders: Joi.object()
      .pattern(
        Joi.string(),
        Joi.object({
          id: Joi.string().max(64).required(),
          height: Joi.number().integer().min(1).required(),
          generatorPublicKey: publicKeyRule.required(),
        }).unknown(true),
      )
      .max(10_000)
      .default({}),
    peersForked: count,
    peersDifferentSlot: count,
    peersForgingNotAllowed: count,
  })
    .unknown(true)
    .default(),
}).unknown(true);

export interface UnconfirmedTransactionsReply {
  readonly poolSize: number;
  /** Serialized transactions (hex) for the next block, best first. */
  readonly transactions: readonly string[];
}

export const unconfirmedTransactionsReplySchema = Joi.object<UnconfirmedTransactionsReply>({
  poolSize: Joi.number().integer().min(0).required(),
  transactions: Joi.array()
    .items(Joi.string().pattern(/^(?:[0-9a-fA-F]{2})+$/, 'hex bytes'))
    .max(10_000)
    .required(),
}).unknown(true);

/** emitEvent: a forger tells its relay what it did (`block.forged`, `forger.failed`, …). */
export interface EmitEventRequest {
  readonly event: string;
  readonly body: Readonly<Record<string, unknown>>;
}

export const emitEventRequestSchema = Joi.object<EmitEventRequest>({
  event: Joi.string().max(64).required(),
  body: Joi.object().unknown(true).default({}),
});

/** Parses a JSON payload; undefined when it is not JSON. */
export function parseJson(payload: Buffer): unknown {
  if (payload.byteLength === 0) return {};
  try {
    return JSON.parse(payload.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
