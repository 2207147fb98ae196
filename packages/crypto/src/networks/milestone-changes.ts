import type { Milestone } from './milestone.js';
import type { Milestones } from './milestones.js';

/** A height at which a milestone key takes a new value. */
export interface MilestoneChange<T> {
  readonly height: number;
  readonly value: T;
}

/**
 * The heights where `key` changes value, starting with its value at height 1: the spans ARK 3.0
 * walks for rounds (`activeDelegates`) and slots (`blocktime`).
 */
export function milestoneChanges<K extends 'activeDelegates' | 'blocktime'>(
  milestones: Milestones,
  key: K,
): readonly MilestoneChange<Milestone[K]>[] {
  const changes: MilestoneChange<Milestone[K]>[] = [];
  for (const milestone of milestones.all()) {
    const value = milestone[key];
    const last = changes[changes.length - 1];
    if (!last) changes.push({ height: 1, value: milestones.at(1)[key] });
    else if (value !== last.value) changes.push({ height: milestone.height, value });
  }
  return changes;
}
