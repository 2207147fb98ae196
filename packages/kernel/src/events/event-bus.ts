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

/** A listener with the plugin that subscribed it, to name it when it fails. */
interface Subscription {
  readonly listener: Listener<never>;
  readonly subscriber: string | undefined;
}

/**
 * A typed publish/subscribe bus. Publishing never throws: a failing listener is logged and the
 * others still run, so one plugin cannot break another's reaction to an event.
 */
export class EventBus {
  private listeners = new Map<EventName, Set<Subscription>>();
  private subscriber: string | undefined;

  constructor(private readonly logger: Logger) {}

  /**
   * The same bus as a plugin uses it: a listener it subscribes that fails is logged with
   * `{ plugin }`, so the log names the plugin to look at, not only the event.
   */
  forPlugin(plugin: string): EventBus {
    const view = new EventBus(this.logger);
    view.listeners = this.listeners;
    view.subscriber = plugin;
    return view;
  }

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends EventName>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    const subscription: Subscription = {
      listener: listener as Listener<never>,
      subscriber: this.subscriber,
    };
    set.add(subscription);
    return () => {
      set.delete(subscription);
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
      [...set].map(async ({ listener, subscriber }) => {
        try {
          await (listener as Listener<K>)(payload);
        } catch (error) {
          const plugin = subscriber === undefined ? {} : { plugin: subscriber };
          this.logger.error({ err: error, event, ...plugin }, 'Event listener failed');
        }
      }),
    );
  }
}
