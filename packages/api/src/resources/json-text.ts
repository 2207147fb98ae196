import { LRUCache } from 'lru-cache';
import type { Page } from '../pagination/envelope.js';
import type { WalletView } from './ledger-views.js';

/**
 * The JSON text of resources built from ledger objects, kept per object. The state replaces a
 * wallet's object whenever the wallet changes (objects are frozen), so a text kept for an object
 * is never stale; what it adds beyond the object (a delegate's approval, which moves with the
 * supply) goes in `version`, and a text of another version is built again. Serializing an item
 * is most of what a page of 100 wallets costs once it is found; popular items (the delegates,
 * the richest wallets) are asked for by many queries between two changes. Bounded: a walk over
 * every wallet evicts the least recently served.
 */
export class JsonTextMemo<Source extends object> {
  readonly #texts: LRUCache<Source, { readonly version: unknown; readonly text: string }>;

  constructor(maxItems: number) {
    this.#texts = new LRUCache({ max: maxItems });
  }

  /** The text `build` gives for `source` at `version`, built once per object and version. */
  text(source: Source, build: (source: Source) => unknown, version?: unknown): string {
    const kept = this.#texts.get(source);
    if (kept !== undefined && kept.version === version) return kept.text;
    const text = JSON.stringify(build(source));
    this.#texts.set(source, { version, text });
    return text;
  }
}

/** A page whose items are JSON texts, as the JSON text of the whole envelope. */
export function pageText(page: Page<string>): string {
  return `{"meta":${JSON.stringify(page.meta)},"data":[${page.data.join(',')}]}`;
}

/** The media type of the JSON texts a route answers with, as hapi sends its own JSON. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The JSON texts of wallets and of delegates, each kept between the changes of its wallet. */
export interface ResourceTexts {
  readonly wallets: JsonTextMemo<WalletView>;
  readonly delegates: JsonTextMemo<WalletView>;
}

/** Texts kept per kind: some 300 bytes a wallet, 500 a delegate, so 8 MB at most in all. */
const KEPT_TEXTS = 10_000;

export function resourceTexts(maxItems = KEPT_TEXTS): ResourceTexts {
  return { wallets: new JsonTextMemo(maxItems), delegates: new JsonTextMemo(maxItems) };
}
