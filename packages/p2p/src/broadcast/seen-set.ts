import { createHash } from 'node:crypto';

/**
 * Digests of the blocks and transactions this node has already seen, the oldest forgotten first
 * once `capacity` is reached, so a message circling the network is passed on once.
 */
export class SeenSet {
  private readonly seen = new Set<string>();

  constructor(private readonly capacity: number) {}

  /** Records the payload; true when it was new. */
  add(bytes: Buffer): boolean {
    const key = createHash('sha256').update(bytes).digest('base64');
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    if (this.seen.size > this.capacity) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return true;
  }

  get size(): number {
    return this.seen.size;
  }
}
