import { LRUCache } from 'lru-cache';
import type { Page } from '../pagination/envelope.js';
import type { WalletView } from '@lni/state/contracts';

/**
 * The JSON of resources built from ledger objects, encoded and kept per object. The state
 * replaces a wallet's object whenever the wallet changes (objects are frozen), so what is kept
 * for an object is never stale; what a resource adds beyond the object (a delegate's approval,
 * which moves with the supply) goes in `version`, and JSON of another version is built again.
 * Serializing an item is most of what a page of 100 wallets costs once it is found; popular
 * items (the delegates, the richest wallets) are asked for by many queries between two changes.
 * Bounded: a walk over every wallet evicts the least recently served.
 */
export class JsonBytesMemo<Source extends object> {
  readonly #kept: LRUCache<Source, { readonly version: unknown; readonly json: Buffer }>;

  constructor(maxItems: number) {
    this.#kept = new LRUCache({ max: maxItems });
  }

  /** The JSON of what `build` gives for `source` at `version`, built once per object and version. */
  json(source: Source, build: (source: Source) => unknown, version?: unknown): Buffer {
    const kept = this.#kept.get(source);
    if (kept !== undefined && kept.version === version) return kept.json;
    const json = Buffer.from(JSON.stringify(build(source)));
    this.#kept.set(source, { version, json });
    return json;
  }
}

const COMMA = Buffer.from(',');
const PAGE_END = Buffer.from(']}');
const DATA_START = Buffer.from('{"data":');
const DATA_END = Buffer.from('}');

/** An item's JSON: encoded whole, or in parts that follow each other. */
export type JsonParts = Buffer | readonly Buffer[];

/**
 * A page of encoded items as the JSON of the whole envelope: the items are copied once, into
 * the answer, where joining them as strings would copy them twice (join, then encode).
 */
export function pageJson(page: Page<JsonParts>): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"meta":${JSON.stringify(page.meta)},"data":[`)];
  page.data.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    if (Buffer.isBuffer(item)) parts.push(item);
    else parts.push(...item);
  });
  parts.push(PAGE_END);
  return Buffer.concat(parts);
}

/** One encoded item as the JSON of `{ data: item }`. */
export function dataJson(item: JsonParts): Buffer {
  return Buffer.concat([DATA_START, ...(Buffer.isBuffer(item) ? [item] : item), DATA_END]);
}

/** The media type of the JSON a route answers as bytes, as hapi sends its own JSON. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The JSON of wallets and of delegates, each kept between the changes of its wallet. */
export interface ResourceJson {
  readonly wallets: JsonBytesMemo<WalletView>;
  readonly delegates: JsonBytesMemo<WalletView>;
}

/** Items kept per kind: some 300 bytes a wallet, 500 a delegate, so 8 MB at most in all. */
const KEPT_ITEMS = 10_000;

export function resourceJson(maxItems = KEPT_ITEMS): ResourceJson {
  return { wallets: new JsonBytesMemo(maxItems), delegates: new JsonBytesMemo(maxItems) };
}
