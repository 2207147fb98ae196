import type Logger from 'bunyan';

/**
 * Events of the node, keyed by name. Plugins add their own by declaration merging:
 *
 *   declare module '@lni/kernel' { interface EventMap { 'block.applied': BlockApplied } }
 */
export interface EventMap {
  'kernel.booted': { readonly mode: string; readonly plugins: readonly string[] };
  'kernel.disposing': { readonly reason: string };
}

export type EventName = keyof EventMap;
export type Listener<K extends EventName> = (payload: EventMap[K]) => void | Promise<void>;

/**
 * A typed publish/subscribe bus. Publishing never throws: a failing listener is logged and the
 * others still run, so one plugin cannot break another's reaction to an event.
 */
export class EventBus {
  private readonly listeners = new Map<EventName, Set<Listener<never>>>();

  constructor(private readonly logger: Logger) {}

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends EventName>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => {
      set.delete(listener as Listener<never>);
    };
  }

  /** Resolves with the next payload of `event`. */
  once<K extends EventName>(event: K): Promise<EventMap[K]> {
    return new Promise((resolve) => {
      const off = this.on(event, (payload) => {
        off();
        resolve(payload);
      });
    });
  }

  /** Publishes to every listener without waiting for asynchronous ones. */
  emit<K extends EventName>(event: K, payload: EventMap[K]): void {
    void this.dispatch(event, payload);
  }

  /** Publishes and resolves once every listener, asynchronous ones included, has finished. */
  async emitAndWait<K extends EventName>(event: K, payload: EventMap[K]): Promise<void> {
    await this.dispatch(event, payload);
  }

  listenerCount(event: EventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  private async dispatch<K extends EventName>(event: K, payload: EventMap[K]): Promise<void> {
    const set = this.listeners.get(event);
    if (!set) return;
    await Promise.all(
      [...set].map(async (listener) => {
        try {
          await (listener as Listener<K>)(payload);
        } catch (error) {
          this.logger.error({ err: error, event }, 'Event listener failed');
        }
      }),
    );
  }
}
