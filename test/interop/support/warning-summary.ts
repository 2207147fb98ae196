/**
 * A node's warnings and errors, grouped: for a failed scenario, what each node complained of,
 * short enough to sit in the last lines of CI's output (which keeps only the end of a run).
 * LNI writes bunyan JSON (level ≥ 40); ARK writes text lines (`[time] WARN: …`).
 */

/** One kind of complaint: how often, when last, and its last full line (shortened). */
export interface WarningGroup {
  readonly count: number;
  readonly last: string;
  readonly time: string;
}

const ARK_LEVEL = /^\[([^\]]+)\]\s+(WARN|WARNING|ERROR|FATAL|CRIT|CRITICAL|EMERGENCY):\s*(.*)$/;
const LINE_LIMIT = 240;

/** Groups a node's warn-or-worse lines by what they say (numbers aside), newest group last. */
export function groupWarnings(log: string): WarningGroup[] {
  const groups = new Map<string, { count: number; last: string; time: string; order: number }>();
  let order = 0;
  for (const line of log.split('\n')) {
    const warning = lniWarning(line) ?? arkWarning(line);
    if (!warning) continue;
    const key = warning.text.replace(/\d+/g, '#');
    const group = groups.get(key);
    groups.set(key, {
      count: (group?.count ?? 0) + 1,
      last: shorten(warning.text),
      time: warning.time,
      order: order++,
    });
  }
  return [...groups.values()]
    .sort((a, b) => a.order - b.order)
    .map(({ count, last, time }) => ({ count, last, time }));
}

/** `  12× [time] text` lines, the `limit` most recent groups. */
export function formatWarnings(groups: readonly WarningGroup[], limit: number): string[] {
  if (groups.length === 0) return ['  (no warnings)'];
  return groups.slice(-limit).map((group) => `  ${group.count}× [${group.time}] ${group.last}`);
}

function lniWarning(line: string): { text: string; time: string } | undefined {
  if (!line.startsWith('{')) return undefined;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof record.level !== 'number' || record.level < 40) return undefined;
  const reason = record.reason ?? (record.err as { message?: unknown } | undefined)?.message;
  const text = `${String(record.msg)}${reason === undefined ? '' : `: ${String(reason)}`}`;
  return { text, time: String(record.time ?? '') };
}

function arkWarning(line: string): { text: string; time: string } | undefined {
  const match = ARK_LEVEL.exec(line);
  if (!match) return undefined;
  return { text: `${match[2]} ${match[3]}`, time: match[1] ?? '' };
}

function shorten(text: string): string {
  return text.length > LINE_LIMIT ? `${text.slice(0, LINE_LIMIT)}…` : text;
}
