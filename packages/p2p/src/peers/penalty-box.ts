import { type Logger, AddressRanges } from '@lni/kernel';

const SWEEP_AT = 10_000;

export type Misbehaviour = 'malformedMessage' | 'rateLimited' | 'invalidBlock';

/** An IP's standing as it is kept (and persisted): score, last penalty, ban. */
export interface PenaltyState {
  readonly ip: string;
  readonly score: number;
  readonly lastAt: number;
  readonly bannedUntil: number | undefined;
  readonly reason: string;
}

export interface PenaltyPolicy {
  readonly malformedMessage: number;
  readonly rateLimited: number;
  readonly invalidBlock: number;
  readonly banThreshold: number;
  readonly banSeconds: number;
}

export interface PenaltyRecord {
  readonly score: number;
  /** Epoch milliseconds; undefined when not banned. */
  readonly bannedUntil: number | undefined;
  readonly lastReason: string | undefined;
}

export interface PenaltyBoxDependencies {
  readonly policy: PenaltyPolicy;
  readonly logger: Logger;
  /** IPs and ranges never penalised nor banned (by default loopback, where forgers live). */
  readonly exempt?: readonly string[];
  /** Told of every change of an IP's standing (undefined: forgotten), to persist it. */
  readonly onChange?: (ip: string, state: PenaltyState | undefined) => void;
  readonly now?: () => number;
}

/**
 * Penalty scores per IP. Misbehaviour adds points; reaching the threshold bans the IP for a
 * fixed time, after which the score starts again from zero. A score that gets no new points
 * for as long as a ban lasts is forgiven. Keyed by IP, not by peer, because
 * an abusive host is refused whichever port it comes from.
 */
export class PenaltyBox {
  private readonly records = new Map<
    string,
    { score: number; bannedUntil?: number; lastReason?: string; lastAt: number }
  >();
  private readonly banListeners = new Set<(ip: string, until: number) => void>();
  private readonly exempt: AddressRanges;
  private readonly now: () => number;

  constructor(private readonly deps: PenaltyBoxDependencies) {
    this.now = deps.now ?? Date.now;
    this.exempt = new AddressRanges(deps.exempt ?? []);
  }

  /** Takes back standings kept from an earlier run; those already over are dropped. */
  restore(states: readonly PenaltyState[]): void {
    for (const { ip, score, lastAt, bannedUntil, reason } of states) {
      this.records.set(ip, {
        score,
        lastAt,
        lastReason: reason,
        ...(bannedUntil !== undefined && { bannedUntil }),
      });
      this.expire(ip);
    }
  }

  /** Adds the points of `kind`; returns true when this penalty banned the IP. */
  penalise(ip: string, kind: Misbehaviour, reason: string): boolean {
    if (this.exempt.has(ip)) {
      this.deps.logger.debug({ ip, kind, reason }, 'Misbehaviour from an exempt IP, not penalised');
      return false;
    }
    this.expire(ip);
    if (this.records.size >= SWEEP_AT) this.sweep();
    const record = this.records.get(ip) ?? { score: 0, lastAt: 0 };
    if (record.bannedUntil !== undefined) return false;
    record.score += this.deps.policy[kind];
    record.lastReason = reason;
    record.lastAt = this.now();
    this.records.set(ip, record);
    this.deps.logger.warn({ ip, kind, reason, score: record.score }, 'Peer penalised');
    if (record.score < this.deps.policy.banThreshold) {
      this.changed(ip, record);
      return false;
    }
    record.bannedUntil = this.now() + this.deps.policy.banSeconds * 1000;
    this.changed(ip, record);
    this.deps.logger.warn(
      { ip, until: new Date(record.bannedUntil).toISOString(), reason },
      'Peer banned',
    );
    for (const listener of this.banListeners) listener(ip, record.bannedUntil);
    return true;
  }

  /**
   * An operator's ban: refused until `until` (epoch ms) whatever its score, exempt ranges
   * included, since a person asked for it. Drops the IP's connections as any ban does.
   */
  ban(ip: string, until: number, reason: string): void {
    const record = {
      score: this.deps.policy.banThreshold,
      lastAt: this.now(),
      bannedUntil: until,
      lastReason: reason,
    };
    this.records.set(ip, record);
    this.changed(ip, record);
    this.deps.logger.warn({ ip, until: new Date(until).toISOString(), reason }, 'Peer banned');
    for (const listener of this.banListeners) listener(ip, until);
  }

  /** Lifts a ban and forgets the score; false when the IP was not banned. */
  unban(ip: string): boolean {
    if (!this.isBanned(ip)) return false;
    this.records.delete(ip);
    this.deps.onChange?.(ip, undefined);
    this.deps.logger.info({ ip }, 'Peer unbanned');
    return true;
  }

  isBanned(ip: string): boolean {
    this.expire(ip);
    return this.records.get(ip)?.bannedUntil !== undefined;
  }

  get(ip: string): PenaltyRecord {
    this.expire(ip);
    const record = this.records.get(ip);
    return {
      score: record?.score ?? 0,
      bannedUntil: record?.bannedUntil,
      lastReason: record?.lastReason,
    };
  }

  /** Every IP banned now, with when its ban ends and why. */
  bans(): { readonly ip: string; readonly bannedUntil: number; readonly reason: string }[] {
    const bans = [];
    for (const ip of [...this.records.keys()]) {
      if (!this.isBanned(ip)) continue;
      const record = this.get(ip);
      bans.push({ ip, bannedUntil: record.bannedUntil as number, reason: record.lastReason ?? '' });
    }
    return bans;
  }

  /** Called with each new ban, to drop the banned IP's connections. */
  onBan(listener: (ip: string, until: number) => void): () => void {
    this.banListeners.add(listener);
    return () => this.banListeners.delete(listener);
  }

  /** A ban ends after banSeconds; a score with no new penalty for as long is forgiven too. */
  private expire(ip: string): void {
    const record = this.records.get(ip);
    if (!record) return;
    const now = this.now();
    const ended =
      record.bannedUntil !== undefined
        ? record.bannedUntil <= now
        : now - record.lastAt >= this.deps.policy.banSeconds * 1000;
    if (ended) {
      this.records.delete(ip);
      this.deps.onChange?.(ip, undefined);
    }
  }

  private changed(
    ip: string,
    record: { score: number; bannedUntil?: number; lastReason?: string; lastAt: number },
  ): void {
    this.deps.onChange?.(ip, {
      ip,
      score: record.score,
      lastAt: record.lastAt,
      bannedUntil: record.bannedUntil,
      reason: record.lastReason ?? '',
    });
  }

  /** Keeps memory bounded when many addresses misbehave once (IPv6 makes addresses cheap). */
  private sweep(): void {
    for (const ip of [...this.records.keys()]) this.expire(ip);
  }
}
