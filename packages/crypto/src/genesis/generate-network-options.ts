import Joi from 'joi';
import { NetworkGenerationError } from './network-generation-error.js';
import { randomMnemonic } from './secrets.js';

/** An initial balance: the genesis block transfers `amount` arktoshi to `address`. */
export interface InitialBalance {
  readonly address: string;
  readonly amount: bigint;
}

/** What a new network is made of; every option but name, delegates and pubKeyHash has ARK's default. */
export interface GenerateNetworkOptions {
  readonly name: string;
  /** Delegates registered (and voting for themselves) in the genesis block. */
  readonly delegates: number;
  /** Address version byte. */
  readonly pubKeyHash: number;
  /** WIF version byte; ARK testnet's 186 by default. */
  readonly wif?: number;
  /** Seconds per slot; 8. */
  readonly blocktime?: number;
  /** Delegates forging per round; all generated delegates by default. */
  readonly activeDelegates?: number;
  /** ISO date of slot 0; today at midnight UTC by default, as ARK does. */
  readonly epoch?: string;
  /** Arktoshi created in the genesis block; 125,000,000 tokens by default. */
  readonly premine?: bigint;
  /** Who receives the premine (then it is their sum); split evenly among the delegates when absent. */
  readonly balances?: readonly InitialBalance[];
  /** First height at which forging pays `reward`; 75,600. */
  readonly rewardHeight?: number;
  /** Arktoshi per forged block from `rewardHeight` on; 2 tokens. */
  readonly reward?: bigint;
  readonly maxTransactions?: number;
  readonly maxPayload?: number;
  readonly token?: string;
  readonly symbol?: string;
  readonly explorer?: string;
  /** Overrides of ARK 3.0's static fees, by type name (transfer, vote, ...). */
  readonly staticFees?: Readonly<Record<string, number>>;
  /** Makes each wallet's secret; a random 12-word BIP39 mnemonic by default. */
  readonly createSecret?: () => string;
}

export type ResolvedNetworkOptions = Required<Omit<GenerateNetworkOptions, 'balances'>> & {
  readonly balances: readonly InitialBalance[] | undefined;
};

/** ARK 3.0's static fees, in arktoshi. */
export const DEFAULT_STATIC_FEES: Readonly<Record<string, number>> = {
  transfer: 10_000_000,
  secondSignature: 500_000_000,
  delegateRegistration: 2_500_000_000,
  vote: 100_000_000,
  multiSignature: 500_000_000,
  ipfs: 500_000_000,
  multiPayment: 10_000_000,
  delegateResignation: 2_500_000_000,
  htlcLock: 10_000_000,
  htlcClaim: 0,
  htlcRefund: 0,
};

const positive = Joi.number().integer().min(1);
const amount = Joi.any().custom((value: unknown, helpers) =>
  typeof value === 'bigint' && value >= 0n && value < 2n ** 64n
    ? value
    : helpers.message({ custom: 'must be a bigint from 0 to 2^64 - 1' }),
);

const schema = Joi.object({
  name: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9_-]*$/i, 'network name')
    .max(64)
    .required(),
  delegates: positive.max(10_000).required(),
  pubKeyHash: Joi.number().integer().min(0).max(255).required(),
  wif: Joi.number().integer().min(0).max(255).default(186),
  blocktime: positive.default(8),
  activeDelegates: positive.max(Joi.ref('delegates')),
  epoch: Joi.string().isoDate(),
  premine: amount,
  balances: Joi.array().items(
    Joi.object({ address: Joi.string().required(), amount: amount.required() }),
  ),
  rewardHeight: positive.default(75_600),
  reward: amount,
  maxTransactions: positive.default(150),
  maxPayload: positive.default(2_097_152),
  token: Joi.string().min(1).max(16),
  symbol: Joi.string().min(1).max(16),
  explorer: Joi.string().allow('').default(''),
  staticFees: Joi.object().pattern(Joi.string(), Joi.number().integer().min(0)).default({}),
  createSecret: Joi.function(),
});

/** The options with defaults filled in, or a NetworkGenerationError naming every bad one. */
export function resolveNetworkOptions(
  options: GenerateNetworkOptions,
  now: Date = new Date(),
): ResolvedNetworkOptions {
  const { error, value } = schema.validate(options, { abortEarly: false, convert: false });
  if (error) {
    const problems = error.details.map((detail) => `${detail.path.join('.')}: ${detail.message}`);
    throw new NetworkGenerationError(`cannot generate a network: ${problems.join('; ')}`);
  }
  const resolved = value as GenerateNetworkOptions & ResolvedNetworkOptions;
  const reward = resolved.reward ?? 200_000_000n;
  const token = resolved.token ?? resolved.name.toUpperCase().slice(0, 16);
  if (reward > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new NetworkGenerationError(
      'reward: milestones store it as a JSON number, at most 2^53 - 1',
    );
  }
  return {
    ...resolved,
    premine: resolved.premine ?? 12_500_000_000_000_000n,
    reward,
    activeDelegates: resolved.activeDelegates ?? resolved.delegates,
    epoch: new Date(
      resolved.epoch ?? `${now.toISOString().slice(0, 10)}T00:00:00.000Z`,
    ).toISOString(),
    token,
    symbol: resolved.symbol ?? token,
    staticFees: { ...DEFAULT_STATIC_FEES, ...resolved.staticFees },
    createSecret: resolved.createSecret ?? randomMnemonic,
    balances: resolved.balances,
  };
}
