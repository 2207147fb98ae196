import { headerWithHexIds, transactionToJson, type BlockHeader } from '@lni/crypto';
import type { EventMap } from '@lni/kernel';
import '@lni/p2p/contracts';
import '@lni/state/contracts';
import { toJsonValue, type JsonValue } from '../resources/json-values.js';

/** Events a webhook can follow: those the node's plugins publish on the event bus. */
export const WEBHOOK_EVENTS = [
  'block.applied',
  'block.reverted',
  'transaction.applied',
  'forger.missing',
  'peer.added',
  'peer.removed',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The payloads of those events as the bus carries them (state and p2p declare them). */
export type WebhookEventPayloads = Pick<EventMap, WebhookEvent>;

/** What the data of some events is made from besides the event. */
export interface WebhookDataSources {
  /** A delegate's wallet as `GET /api/wallets/{id}` shows it; absent without the ledger. */
  readonly delegateWallet?: (publicKey: string) => JsonValue | undefined;
}

type DataOf = {
  readonly [K in WebhookEvent]: (
    payload: WebhookEventPayloads[K],
    sources: WebhookDataSources,
  ) => JsonValue;
};

/**
 * The `data` ARK 3 posts for each event, amounts as decimal strings: a block's header as ARK's
 * block data holds it, the transaction itself with its `blockId` and `blockHeight`, the missing
 * delegate's wallet, the peer. What LNI adds goes in fields ARK's data does not have: a
 * transaction's `block` (id, height, timestamp), the missed slot's `height`, `round`, `slot`
 * and `timestamp`, a removed peer's `reason`.
 */
const DATA: DataOf = {
  'block.applied': ({ block }) => blockData(block),
  'block.reverted': ({ block }) => blockData(block),
  'transaction.applied': ({ transaction, block }) =>
    json({
      ...transactionToJson(transaction),
      blockId: block.id,
      blockHeight: block.height,
      block: { id: block.id, height: block.height, timestamp: block.timestamp },
    }),
  'forger.missing': ({ delegate, height, round, slot, timestamp }, sources) => ({
    delegate: sources.delegateWallet?.(delegate) ?? { publicKey: delegate },
    height,
    round,
    slot,
    timestamp,
  }),
  'peer.added': (peer) => json(peer),
  'peer.removed': (peer) => json(peer),
};

export function webhookEventData<K extends WebhookEvent>(
  event: K,
  payload: WebhookEventPayloads[K],
  sources: WebhookDataSources,
): JsonValue {
  return DATA[event](payload, sources);
}

/** ARK's block data: the header with its ids also in the hex of the header's bytes. */
function blockData(block: BlockHeader): JsonValue {
  return json(headerWithHexIds(block));
}

function json(value: unknown): JsonValue {
  return toJsonValue(value) ?? null;
}
