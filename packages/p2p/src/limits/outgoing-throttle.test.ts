import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutgoingThrottle } from './outgoing-throttle.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('OutgoingThrottle', () => {
  it("holds our getBlocks to one peer at ARK's 1 per 2 s, other peers and routes unaffected", async () => {
    vi.useFakeTimers();
    const throttle = new OutgoingThrottle();
    const sent: string[] = [];
    const send = (peer: string, route: 'getBlocks' | 'getStatus') =>
      throttle.take(peer, route).then(() => sent.push(`${peer} ${route}`));

    await send('10.77.0.2:4000', 'getBlocks');
    const second = send('10.77.0.2:4000', 'getBlocks');
    await send('10.77.0.3:4000', 'getBlocks');
    await send('10.77.0.2:4000', 'getStatus');
    await vi.advanceTimersByTimeAsync(1_900);
    expect(sent).toEqual([
      '10.77.0.2:4000 getBlocks',
      '10.77.0.3:4000 getBlocks',
      '10.77.0.2:4000 getStatus',
    ]);
    await vi.advanceTimersByTimeAsync(200);
    await second;
    expect(sent.at(-1)).toBe('10.77.0.2:4000 getBlocks');
  });

  it('lets waiting requests go one by one, never two in one window', async () => {
    vi.useFakeTimers();
    const throttle = new OutgoingThrottle();
    const times: number[] = [];
    const all = Array.from({ length: 4 }, () =>
      throttle.take('peer', 'postBlock').then(() => times.push(Date.now())),
    );
    await vi.advanceTimersByTimeAsync(20_000);
    await Promise.all(all);
    // postBlock: 2 per 4 s.
    for (let i = 2; i < times.length; i++) {
      expect((times[i] as number) - (times[i - 2] as number)).toBeGreaterThanOrEqual(4_000);
    }
  });
});
