import { LRUCache } from 'lru-cache';

/**
 * Serialized responses of the routes that read only the chain, kept while the chain's tip (the
 * last block's id) stays the same. Such a response can only change when a block is applied or
 * reverted, which changes the tip; the first request at a new tip drops everything cached at
 * the old one, so a client never gets an answer from a state the node has left.
 */
export class ResponseCache {
  readonly #entries: LRUCache<string, Buffer>;
  #tip: string | undefined;

  constructor({ maxBytes }: { readonly maxBytes: number }) {
    this.#entries = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (payload, url) => Math.max(1, payload.length + url.length),
    });
  }

  /** The payload cached for `url` at `tip`, if any (bytes, as they go out: no encoding per hit). */
  get(tip: string, url: string): Buffer | undefined {
    if (tip !== this.#tip) {
      this.#entries.clear();
      this.#tip = tip;
      return undefined;
    }
    return this.#entries.get(url);
  }

  /**
   * Keeps `payload` for `url`. `startedAt` is the tip when the request began, `tip` the one now:
   * a response whose computation saw the tip move (or vanish) may mix two states, and is not kept.
   */
  set(startedAt: string, tip: string | undefined, url: string, payload: Buffer): void {
    if (startedAt !== tip || tip !== this.#tip) return;
    this.#entries.set(url, payload);
  }

  get size(): number {
    return this.#entries.size;
  }
}
