import { Counter, Gauge, type Registry } from 'prom-client';
import type { RequestResult } from '../server/dispatcher.js';

/**
 * The P2P plugin's metrics: lni_peers (read at each scrape) and lni_p2p_messages_total, the
 * requests the P2P server answered by route and how each ended.
 */
export class P2PMetrics {
  private readonly messages: Counter<'route' | 'result'>;

  constructor(registry: Registry, peerCount: () => number) {
    new Gauge({
      name: 'lni_peers',
      help: 'Peers this node is connected to (those GET /api/peers lists)',
      registers: [registry],
      collect() {
        this.set(peerCount());
      },
    });
    this.messages = new Counter({
      name: 'lni_p2p_messages_total',
      help: 'Requests the P2P server answered, by route and result (ok, refused, malformed, rateLimited, failed)',
      labelNames: ['route', 'result'],
      registers: [registry],
    });
  }

  /** The P2P server's `onResult`. */
  readonly requestEnded = (route: string, result: RequestResult): void => {
    this.messages.inc({ route, result });
  };
}
