import { describe, expect, it } from 'vitest';
import { SearchGate } from './search-gate.js';

describe('SearchGate', () => {
  it('runs at most its slots at once, the rest in order, and refuses a wait past the budget', async () => {
    const gate = new SearchGate(2);
    const events: string[] = [];
    const releases: (() => void)[] = [];
    const search = (name: string, timeoutMs = 1_000) =>
      gate.run(
        () =>
          new Promise<string>((resolve) => {
            events.push(`start ${name}`);
            releases.push(() => resolve(name));
          }),
        timeoutMs,
      );
    const a = search('a');
    const b = search('b');
    const c = search('c');
    const late = search('late', 20).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['start a', 'start b']);
    expect(await late).toMatchObject({ code: 'ERR_DB_SEARCH_TIMEOUT' });
    releases[0]?.();
    expect(await a).toBe('a');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual(['start a', 'start b', 'start c']);
    releases[1]?.();
    releases[2]?.();
    expect(await Promise.all([b, c])).toEqual(['b', 'c']);
    // Every slot is free again.
    const d = search('d');
    const e = search('e');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events.slice(-2)).toEqual(['start d', 'start e']);
    releases[3]?.();
    releases[4]?.();
    await Promise.all([d, e]);
  });
});
