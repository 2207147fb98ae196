import type { Writable } from 'node:stream';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const ERROR_LEVEL = 50;
const STANDARD_FIELDS = new Set(['name', 'hostname', 'pid', 'level', 'msg', 'time', 'v', 'plugin']);

/** A bunyan record, as logged or as parsed back from a JSON line. */
export interface LogRecord {
  readonly level: number;
  readonly msg: string;
  readonly time: Date | string;
  readonly plugin?: string;
  readonly err?: { readonly stack?: string; readonly message?: string };
  readonly [field: string]: unknown;
}

/**
 * One readable line for a record: time, level, plugin, message, then its fields. Errors and
 * worse carry the stack on the lines below; a warning names its error's message only, since
 * warnings are expected conditions (a peer down, a retry) and not faults to debug.
 */
export function formatLogRecord(record: LogRecord): string {
  const time = new Date(record.time).toISOString().slice(11, 23);
  const level = LEVELS[record.level] ?? String(record.level);
  const scope = record.plugin ? `${record.plugin}: ` : '';
  const withStack = record.level >= ERROR_LEVEL && record.err?.stack !== undefined;
  const fields = Object.entries(record)
    .filter(([key]) => !STANDARD_FIELDS.has(key) && key !== 'err')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (record.err?.message !== undefined && !withStack) fields.push(`err=${record.err.message}`);
  const line = [`${time} ${level} ${scope}${record.msg}`, ...fields].join(' ');
  const stack = withStack ? `\n    ${record.err?.stack?.replace(/\n/g, '\n    ')}` : '';
  return `${line}${stack}`;
}

/** A bunyan raw stream writing one readable line per record, for people at a terminal. */
export class PrettyStream {
  constructor(private readonly out: Writable) {}

  write(record: LogRecord): void {
    this.out.write(`${formatLogRecord(record)}\n`);
  }
}
