import { type Logger, AddressRanges, canonicalAddress } from '@lni/kernel';
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  readonly maxPerIp: number;
  readonly newPerInterval: number;
  readonly intervalSeconds: number;
  readonly exempt: readonly string[];
}

export interface ConnectionGateDependencies {
  readonly limits: ConnectionLimits;
  readonly isBanned: (ip: string) => boolean;
  readonly logger: Logger;
  readonly now?: () => number;
}

export type Refusal = 'banned' | 'perIp' | 'rate';

/** Above this many IPs with recent connections, expired ones are swept (IPv6 makes IPs cheap). */
const SWEEP_AT = 10_000;

/**
 * The spec's connection limits, enforced on TCP sockets before HTTP or websocket code sees
 * them, like the firewall script does: simultaneous connections per IP, new connections per
 * interval per IP (the script's `recent` rule), and no connection at all from a banned IP.
 */
export class ConnectionGate {
  private readonly open = new Map<string, number>();
  /** Accept times of each IP's recent connections, oldest first: a sliding window per IP. */
  private readonly accepted = new Map<string, number[]>();
  private readonly exempt: AddressRanges;
  private readonly now: () => number;
  private readonly refusals: Record<Refusal, number> = { banned: 0, perIp: 0, rate: 0 };

  constructor(private readonly deps: ConnectionGateDependencies) {
    this.exempt = new AddressRanges(deps.limits.exempt);
    this.now = deps.now ?? Date.now;
  }

  /** Runs first on every new socket of `server`. */
  attach(server: HttpServer): void {
    server.prependListener('connection', (socket: Socket) => this.admit(socket));
  }

  connectionsFrom(ip: string): number {
    return this.open.get(canonicalAddress(ip)) ?? 0;
  }

  /** How many sockets each limit refused since start. */
  refused(): Readonly<Record<Refusal, number>> {
    return { ...this.refusals };
  }

  private admit(socket: Socket): void {
    const ip = canonicalAddress(socket.remoteAddress ?? '');
    const refusal = this.check(ip);
    if (refusal) {
      this.refusals[refusal] += 1;
      this.deps.logger.debug({ ip, refusal }, 'Connection refused');
      // resetAndDestroy sends a TCP RST, what the firewall's REJECT --reject-with tcp-reset does.
      socket.resetAndDestroy();
      return;
    }
    this.open.set(ip, (this.open.get(ip) ?? 0) + 1);
    socket.once('close', () => {
      const count = (this.open.get(ip) ?? 1) - 1;
      if (count <= 0) this.open.delete(ip);
      else this.open.set(ip, count);
    });
  }

  private check(ip: string): Refusal | undefined {
    if (this.deps.isBanned(ip)) return 'banned';
    if (this.exempt.has(ip)) return undefined;
    const { maxPerIp, newPerInterval, intervalSeconds } = this.deps.limits;
    if ((this.open.get(ip) ?? 0) >= maxPerIp) return 'perIp';
    const now = this.now();
    const windowStart = now - intervalSeconds * 1000;
    if (this.accepted.size >= SWEEP_AT) this.sweep(windowStart);
    const times = this.accepted.get(ip) ?? [];
    while (times.length > 0 && (times[0] as number) <= windowStart) times.shift();
    if (times.length >= newPerInterval) return 'rate';
    times.push(now);
    this.accepted.set(ip, times);
    return undefined;
  }

  private sweep(windowStart: number): void {
    for (const [ip, times] of this.accepted) {
      if ((times.at(-1) ?? 0) <= windowStart) this.accepted.delete(ip);
    }
  }
}
