import { interopSkipReason } from './skip.js';
import { sweepLeftovers } from './sweep.js';

// Runs in vitest's main process: before the scenarios it removes what killed runs left; after
// them (every worker gone) anything still there is a cleanup bug, so it is removed and named.

export async function setup(): Promise<void> {
  const reason = await interopSkipReason();
  if (reason) {
    console.warn(`interop scenarios skipped: ${reason}`);
    return;
  }
  for (const leftover of await sweepLeftovers()) {
    console.warn(`removed a leftover of an earlier run: ${leftover}`);
  }
}

export async function teardown(): Promise<void> {
  if (await interopSkipReason()) return;
  const leftovers = await sweepLeftovers();
  if (leftovers.length > 0) {
    throw new Error(`the scenarios left behind: ${leftovers.join(', ')}`);
  }
}
