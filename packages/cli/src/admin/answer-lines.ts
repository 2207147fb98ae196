import { formatLogRecord, type LogRecord } from '@lni/kernel';

/** The human-readable lines of each admin answer; `--json` prints the answer itself instead. */

interface Peer {
  readonly ip: string;
  readonly port: number;
  readonly version: string;
  readonly height: number;
  readonly latency: number;
}

interface Ban {
  readonly ip: string;
  readonly bannedUntil: string;
  readonly reason: string;
}

export function peerLines({ peers, bans }: { peers: Peer[]; bans: Ban[] }): string[] {
  const lines = peers.length === 0 ? ['no peers connected'] : [`${peers.length} peers:`];
  for (const peer of peers) {
    lines.push(
      `  ${`${peer.ip}:${peer.port}`.padEnd(22)} height ${String(peer.height).padEnd(9)} version ${peer.version.padEnd(8)} ${peer.latency} ms`,
    );
  }
  if (bans.length > 0) lines.push(`${bans.length} banned:`);
  for (const ban of bans)
    lines.push(`  ${ban.ip.padEnd(22)} until ${ban.bannedUntil} (${ban.reason})`);
  return lines;
}

interface PooledTransaction {
  readonly id: string;
  readonly sender: string;
  readonly type: number;
  readonly nonce: string;
  readonly fee: string;
  readonly amount: string;
  readonly addedAt: string;
}

export function poolLines(transactions: readonly PooledTransaction[]): string[] {
  if (transactions.length === 0) return ['the pool is empty'];
  return [
    `${transactions.length} transactions, best first:`,
    ...transactions.map(
      (tx) =>
        `  ${tx.id} from ${tx.sender} nonce ${tx.nonce} type ${tx.type} amount ${tx.amount} fee ${tx.fee} since ${tx.addedAt}`,
    ),
  ];
}

export function logLine(record: unknown): string {
  return formatLogRecord(record as LogRecord);
}

type Status = Readonly<Record<string, unknown>> & {
  readonly node?: {
    network: string;
    mode: string;
    pid: number;
    uptimeSeconds: number;
    plugins: string[];
  };
  readonly chain?: { height: number; id?: string; timestamp?: number };
  readonly sync?: { networkHeight: number | null; behind: number | null; synced: boolean | null };
  readonly peers?: { connected: number; banned: number };
  readonly pool?: { size: number; bytes: number };
  readonly lastErrors?: readonly LogRecord[];
};

const KNOWN = new Set(['node', 'chain', 'sync', 'peers', 'pool', 'forging', 'lastErrors']);

/** `kernel status` as lines: the sections it knows first, any other plugin's as JSON. */
export function statusLines(status: Status): string[] {
  const lines: string[] = [];
  const { node, chain, sync, peers, pool } = status;
  if (node) {
    lines.push(
      row(
        'node',
        `${node.network}, ${node.mode} mode, pid ${node.pid}, up ${duration(node.uptimeSeconds)}`,
      ),
      row('plugins', node.plugins.join(', ')),
    );
  }
  if (chain)
    lines.push(
      row(
        'height',
        section(chain, () => `${chain.height} (block ${chain.id ?? '-'})`),
      ),
    );
  if (sync)
    lines.push(
      row(
        'sync',
        section(sync, () => syncText(sync)),
      ),
    );
  if (peers)
    lines.push(
      row(
        'peers',
        section(peers, () => `${peers.connected} connected, ${peers.banned} banned`),
      ),
    );
  if (pool)
    lines.push(
      row(
        'pool',
        section(pool, () => `${pool.size} transactions (${pool.bytes} bytes)`),
      ),
    );
  if ('forging' in status) lines.push(row('forging', forgingText(status.forging)));
  for (const [name, value] of Object.entries(status)) {
    if (!KNOWN.has(name)) lines.push(row(name, JSON.stringify(value)));
  }
  const errors = status.lastErrors ?? [];
  lines.push(row('last errors', errors.length === 0 ? 'none' : ''));
  for (const record of errors) lines.push(`  ${formatLogRecord(record).split('\n')[0]}`);
  return lines;
}

function row(label: string, text: string): string {
  return `${label.padEnd(12)} ${text}`.trimEnd();
}

/** A section that could not be read says why instead. */
function section(value: object, text: () => string): string {
  const error = (value as { error?: string }).error;
  return error === undefined ? text() : `unknown: ${error}`;
}

function syncText(sync: NonNullable<Status['sync']>): string {
  if (sync.synced === null) return 'no peers to compare with';
  if (sync.synced) return `synced with the network (height ${sync.networkHeight})`;
  return `${sync.behind} blocks behind the network (height ${sync.networkHeight})`;
}

interface Forging {
  readonly error?: string;
  readonly delegates?: number;
  readonly names?: readonly string[];
  readonly next?: { readonly delegate: string; readonly slot: number; readonly at: string } | null;
}

function forgingText(forging: unknown): string {
  if (forging === undefined || forging === null) return 'no forger in this process';
  const value = forging as Forging;
  if (value.error !== undefined) return `unknown: ${value.error}`;
  const next = value.next
    ? `; next: ${value.next.delegate} at ${value.next.at}`
    : '; no slot of its delegates ahead in this round';
  return `${value.delegates ?? 0} delegates (${(value.names ?? []).join(', ')})${next}`;
}

function duration(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
