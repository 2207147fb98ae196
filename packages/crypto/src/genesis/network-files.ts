import type { MilestoneEntry } from '../networks/milestone.js';
import type { NetworkParams } from '../networks/network-params.js';
import type { ResolvedNetworkOptions } from './generate-network-options.js';

// ARK 3.0's own network:generate uses these for every network it makes.
const BIP32 = { public: 70_617_039, private: 70_615_956 };
const VENDOR_FIELD_255_HEIGHT = 100_000;
const FULL_SHA256_ID_HEIGHT = 4_000_000;

/** crypto/network.json of the new network; the nethash is the genesis block's payload hash. */
export function networkParams(options: ResolvedNetworkOptions, nethash: string): NetworkParams {
  return {
    name: options.name,
    messagePrefix: `${options.name} message:\n`,
    bip32: BIP32,
    pubKeyHash: options.pubKeyHash,
    nethash,
    wif: options.wif,
    slip44: 1,
    aip20: 0,
    client: { token: options.token, symbol: options.symbol, explorer: options.explorer },
  };
}

/**
 * crypto/milestones.json as ARK 3.0's generator writes it: everything at height 1 (AIP-11 and
 * HTLC on from the start), the reward from `rewardHeight`, 255-byte vendor fields from 100,000,
 * full sha256 block ids from 4,000,000. Entries falling on one height are merged.
 */
export function networkMilestones(options: ResolvedNetworkOptions): MilestoneEntry[] {
  const entries: MilestoneEntry[] = [
    {
      height: 1,
      reward: 0,
      activeDelegates: options.activeDelegates,
      blocktime: options.blocktime,
      block: {
        version: 0,
        maxTransactions: options.maxTransactions,
        maxPayload: options.maxPayload,
      },
      epoch: options.epoch,
      fees: { staticFees: { ...options.staticFees } },
      vendorFieldLength: 64,
      multiPaymentLimit: 256,
      aip11: true,
      htlcEnabled: true,
    },
    { height: options.rewardHeight, reward: Number(options.reward) },
    { height: VENDOR_FIELD_255_HEIGHT, vendorFieldLength: 255 },
    { height: FULL_SHA256_ID_HEIGHT, block: { idFullSha256: true } },
  ];
  const byHeight = new Map<number, Record<string, unknown>>();
  for (const entry of entries) {
    const existing = byHeight.get(entry.height) ?? {};
    const block = { ...(existing.block as object), ...(entry.block as object) };
    byHeight.set(entry.height, {
      ...existing,
      ...entry,
      ...(Object.keys(block).length > 0 && { block }),
    });
  }
  return [...byHeight.values()].sort(
    (a, b) => (a.height as number) - (b.height as number),
  ) as MilestoneEntry[];
}
