import deepmerge from 'deepmerge';
import { KernelError } from '@lni/errors';
import type { Milestone, MilestoneEntry } from './milestone.js';

/** A height before the first milestone, or not a height at all. */
export class MilestoneLookupError extends KernelError {
  constructor(message: string) {
    super('ERR_MILESTONE_HEIGHT', message);
  }
}

// ARK replaces arrays (p2p.minimumVersions) instead of concatenating them.
const replaceArrays = (_target: unknown[], source: unknown[]): unknown[] => source;

/**
 * The milestones of a network, each entry deep-merged over the earlier ones exactly as ARK 3.0's
 * ConfigManager does. Immutable; the list should come from loadNetworkConfig, which validates it.
 */
export class Milestones {
  readonly #heights: number[];
  readonly #merged: Milestone[];

  constructor(entries: readonly MilestoneEntry[]) {
    if (!Array.isArray(entries) || entries.length === 0) {
      throw new MilestoneLookupError('milestones: expected a non-empty list');
    }
    const sorted = [...entries].sort((a, b) => a.height - b.height);
    this.#merged = [];
    let previous: Record<string, unknown> = {};
    for (const entry of sorted) {
      previous = deepmerge(previous, entry as Record<string, unknown>, {
        arrayMerge: replaceArrays,
      });
      this.#merged.push(deepFreeze(previous) as unknown as Milestone);
    }
    this.#heights = sorted.map((entry) => entry.height);
  }

  /** The milestone in force at `height` (binary search). */
  at(height: number): Milestone {
    if (!Number.isSafeInteger(height) || height < 1) {
      throw new MilestoneLookupError(`height: expected a positive integer, got ${String(height)}`);
    }
    let low = 0;
    let high = this.#heights.length - 1;
    // Finds the last milestone whose height is <= the asked height.
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.#heights[middle] as number) <= height) low = middle;
      else high = middle - 1;
    }
    if ((this.#heights[low] as number) > height) {
      throw new MilestoneLookupError(
        `height: ${height} is before the first milestone (height ${this.#heights[0]})`,
      );
    }
    return this.#merged[low] as Milestone;
  }

  /** Heights at which a milestone starts, ascending. */
  heights(): readonly number[] {
    return [...this.#heights];
  }

  /** Every merged milestone, ascending by height. */
  all(): readonly Milestone[] {
    return [...this.#merged];
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
