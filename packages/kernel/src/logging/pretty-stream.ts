import type { Writable } from 'node:stream';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const STANDARD_FIELDS = new Set(['name', 'hostname', 'pid', 'level', 'msg', 'time', 'v', 'plugin']);

interface LogRecord {
  readonly level: number;
  readonly msg: string;
  readonly time: Date | string;
  readonly plugin?: string;
  readonly err?: { readonly stack?: string; readonly message?: string };
  readonly [field: string]: unknown;
}

/** A bunyan raw stream writing one readable line per record, for people at a terminal. */
export class PrettyStream {
  constructor(private readonly out: Writable) {}

  write(record: LogRecord): void {
    const time = new Date(record.time).toISOString().slice(11, 23);
    const level = LEVELS[record.level] ?? String(record.level);
    const scope = record.plugin ? `${record.plugin}: ` : '';
    const fields = Object.entries(record)
      .filter(([key]) => !STANDARD_FIELDS.has(key) && key !== 'err')
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
    const line = [`${time} ${level} ${scope}${record.msg}`, ...fields].join(' ');
    const stack = record.err?.stack ? `\n    ${record.err.stack.replace(/\n/g, '\n    ')}` : '';
    this.out.write(`${line}${stack}\n`);
  }
}
