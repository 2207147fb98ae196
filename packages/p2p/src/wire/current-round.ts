import { blockHeaderToJson, type BlockHeader } from '@lni/crypto';
import Joi from 'joi';
import type { ForgingRound, RoundDelegate } from '@lni/crypto';
import { publicKeyRule } from './internal-messages.js';

/** A delegate wallet as ARK's getCurrentRound lists it: wallet data and its delegate attribute. */
export interface RoundDelegateWallet {
  readonly address: string;
  readonly publicKey: string;
  readonly balance: string;
  readonly nonce: string;
  readonly delegate: {
    readonly username: string;
    readonly voteBalance: string;
    readonly rank?: number;
  };
}

/** getCurrentRound's answer on the wire, in ARK Core 3.x's JSON: a `ForgingRound` inside. */
export interface CurrentRoundReply {
  readonly current: number;
  /** ARK sends the milestone's reward as it is written there: a number, or a string. */
  readonly reward: number | string;
  /** Epoch seconds at the start of the current slot: the next block's timestamp. */
  readonly timestamp: number;
  readonly delegates: readonly RoundDelegateWallet[];
  readonly currentForger: RoundDelegateWallet;
  readonly nextForger: RoundDelegateWallet;
  /** The relay's last block (ARK sends its whole data; a forger needs id and height). */
  readonly lastBlock: { readonly id: string; readonly height: number } & Record<string, unknown>;
  readonly canForge: boolean;
}

const decimal = Joi.alternatives(Joi.number().integer().min(0), Joi.string().pattern(/^\d+$/));

const delegateWallet = Joi.object({
  publicKey: publicKeyRule.required(),
  delegate: Joi.object({ username: Joi.string().allow('').max(64) }).unknown(true),
}).unknown(true);

export const currentRoundReplySchema = Joi.object<CurrentRoundReply>({
  current: Joi.number().integer().min(1).required(),
  reward: decimal.required(),
  timestamp: Joi.number().integer().min(0).required(),
  delegates: Joi.array().items(delegateWallet).max(1000).required(),
  currentForger: delegateWallet.required(),
  nextForger: delegateWallet.required(),
  lastBlock: Joi.object({
    id: Joi.string().max(64).required(),
    height: Joi.number().integer().min(1).required(),
  })
    .unknown(true)
    .required(),
  canForge: Joi.boolean().required(),
}).unknown(true);

/** A relay's round as it answers getCurrentRound, ARK's forgers included. */
export function currentRoundToWire(round: ForgingRound<BlockHeader>): CurrentRoundReply {
  const wallets = round.delegates.map(walletOf);
  const walletByKey = (publicKey: string): RoundDelegateWallet =>
    wallets.find((wallet) => wallet.publicKey === publicKey) ?? { ...emptyWallet, publicKey };
  return {
    current: round.round,
    // ARK sends the milestone's reward as written there, usually a number.
    reward:
      round.reward <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(round.reward) : String(round.reward),
    timestamp: round.slotTimestamp,
    delegates: wallets,
    currentForger: walletByKey(round.currentForger),
    nextForger: walletByKey(round.nextForger),
    lastBlock: blockHeaderToJson(round.lastBlock),
    canForge: round.canForge,
  };
}

/**
 * The round a relay (LNI's or ARK's) answered, checked by `currentRoundReplySchema`. The
 * delegate list is left out: a forger needs only whose slot it is and whose comes next.
 */
export function currentRoundFromWire(reply: CurrentRoundReply): Omit<ForgingRound, 'delegates'> {
  return {
    round: reply.current,
    reward: BigInt(reply.reward),
    slotTimestamp: reply.timestamp,
    canForge: reply.canForge,
    currentForger: reply.currentForger.publicKey,
    nextForger: reply.nextForger.publicKey,
    lastBlock: { id: reply.lastBlock.id, height: reply.lastBlock.height },
  };
}

const emptyWallet = {
  address: '',
  balance: '0',
  nonce: '0',
  delegate: { username: '', voteBalance: '0' },
};

function walletOf(delegate: RoundDelegate): RoundDelegateWallet {
  return {
    address: delegate.address,
    publicKey: delegate.publicKey,
    balance: delegate.balance,
    nonce: delegate.nonce,
    delegate: {
      username: delegate.username,
      voteBalance: delegate.voteBalance,
      ...(delegate.rank !== undefined && { rank: delegate.rank }),
    },
  };
}
