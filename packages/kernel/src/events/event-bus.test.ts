import bunyan from 'bunyan';
import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.js';

declare module './event-bus.js' {
  interface EventMap {
    'test.counted': { readonly count: number };
  }
}

function bus() {
  const records = new bunyan.RingBuffer({ limit: 10 });
  const logger = bunyan.createLogger({ name: 't', streams: [{ type: 'raw', stream: records }] });
  return { events: new EventBus(logger), records };
}

describe('EventBus', () => {
  it('delivers payloads to subscribers until they unsubscribe', () => {
    const { events } = bus();
    const seen: number[] = [];
    const off = events.on('test.counted', ({ count }) => {
      seen.push(count);
    });
    events.emit('test.counted', { count: 1 });
    off();
    events.emit('test.counted', { count: 2 });
    expect(seen).toEqual([1]);
    expect(events.listenerCount('test.counted')).toBe(0);
  });

  it('a failing listener is logged and does not stop the others', async () => {
    const { events, records } = bus();
    const seen: number[] = [];
    events.on('test.counted', () => {
      throw new Error('listener broke');
    });
    events.on('test.counted', async ({ count }) => {
      seen.push(count);
    });
    await events.emitAndWait('test.counted', { count: 3 });
    expect(seen).toEqual([3]);
    expect(records.records[0]).toMatchObject({
      event: 'test.counted',
      msg: 'Event listener failed',
    });
  });

  it('emitAndWait resolves after asynchronous listeners finish', async () => {
    const { events } = bus();
    let done = false;
    events.on('test.counted', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done = true;
    });
    await events.emitAndWait('test.counted', { count: 0 });
    expect(done).toBe(true);
  });
});
