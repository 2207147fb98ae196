import Joi from 'joi';

// Unknown keys are allowed everywhere: ARK's own files carry keys this node does not read
// (burnAddress, p2p.minimumVersions, aip36, ...) and they must load unchanged.

const byte = Joi.number().integer().min(0).max(255);
const amount = Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER);
const hex = (bytes: number) =>
  Joi.string()
    .hex()
    .length(bytes * 2);
const amountText = Joi.alternatives(amount, Joi.string().pattern(/^\d+$/, 'integer string'));

export const networkSchema = Joi.object({
  name: Joi.string().min(1).required(),
  messagePrefix: Joi.string().required(),
  bip32: Joi.object({
    public: Joi.number().integer().min(0).required(),
    private: Joi.number().integer().min(0).required(),
  }).required(),
  pubKeyHash: byte.required(),
  nethash: hex(32).required(),
  wif: byte.required(),
  slip44: Joi.number().integer().min(0).required(),
  aip20: Joi.number().integer().min(0).required(),
  client: Joi.object({
    token: Joi.string().min(1).required(),
    symbol: Joi.string().min(1).required(),
    explorer: Joi.string().allow('').required(),
  }).required(),
  burnAddress: Joi.string(),
}).unknown(true);

/** The keys a milestone entry may change, typed; presence is checked on the merged first one. */
const milestoneKeys = {
  height: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required(),
  activeDelegates: Joi.number().integer().min(1),
  blocktime: Joi.number().integer().min(1),
  reward: amount,
  block: Joi.object({
    version: Joi.number().integer().min(0).max(255),
    maxTransactions: Joi.number().integer().min(0),
    maxPayload: Joi.number().integer().min(0),
    idFullSha256: Joi.boolean(),
    acceptExpiredTransactionTimestamps: Joi.boolean(),
  }).unknown(true),
  epoch: Joi.string().isoDate(),
  fees: Joi.object({ staticFees: Joi.object().pattern(Joi.string(), amount) }).unknown(true),
  vendorFieldLength: Joi.number().integer().min(0).max(255),
  multiPaymentLimit: Joi.number().integer().min(1),
  aip11: Joi.boolean(),
  htlcEnabled: Joi.boolean(),
};

export const milestoneEntrySchema = Joi.object(milestoneKeys).unknown(true);

export const milestonesSchema = Joi.array().items(milestoneEntrySchema).min(1);

/** What the first milestone must define, since every later one only overrides it. */
export const firstMilestoneSchema = Joi.object({
  ...milestoneKeys,
  height: Joi.number().valid(1).required(),
  activeDelegates: milestoneKeys.activeDelegates.required(),
  blocktime: milestoneKeys.blocktime.required(),
  reward: milestoneKeys.reward.required(),
  block: Joi.object({
    version: Joi.number().integer().min(0).max(255).required(),
    maxTransactions: Joi.number().integer().min(0).required(),
    maxPayload: Joi.number().integer().min(0).required(),
  })
    .unknown(true)
    .required(),
  epoch: milestoneKeys.epoch.required(),
  fees: Joi.object({ staticFees: Joi.object().pattern(Joi.string(), amount).required() })
    .unknown(true)
    .required(),
  vendorFieldLength: milestoneKeys.vendorFieldLength.required(),
}).unknown(true);

/** The genesis block's header; its transactions are checked by the block verifier. */
export const genesisBlockSchema = Joi.object({
  id: Joi.string()
    .pattern(/^(\d{1,20}|[0-9a-fA-F]{64})$/, 'block id')
    .required(),
  version: Joi.number().integer().min(0).max(255).required(),
  timestamp: Joi.number().integer().min(0).required(),
  height: Joi.number().valid(1).required(),
  previousBlock: Joi.valid(null).required(),
  numberOfTransactions: Joi.number().integer().min(0).required(),
  totalAmount: amountText.required(),
  totalFee: amountText.required(),
  reward: amountText.required(),
  payloadLength: Joi.number().integer().min(0).required(),
  payloadHash: hex(32).required(),
  generatorPublicKey: hex(33).required(),
  blockSignature: Joi.string().hex().max(144).required(),
  transactions: Joi.array().items(Joi.object().unknown(true)).required(),
}).unknown(true);

const idList = Joi.array().items(Joi.string());

export const exceptionsSchema = Joi.object({
  blocks: idList,
  transactions: idList,
  blocksTransactions: Joi.object().pattern(Joi.string(), idList),
}).unknown(true);
