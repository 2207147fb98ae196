import { formatLogRecord, type LogRecord } from '@lni/kernel';
import type { Writable } from 'node:stream';

const ERROR_LEVEL = 50;

/**
 * The output of one local node, passed on line by line with the node's name in front: its
 * JSON log records as readable lines when `pretty` (a terminal), as they are otherwise. It keeps
 * what explains a stop: the node's last error, and the signal it said it was stopping on.
 */
export class NodeOutput {
  /** The last error the node logged or printed, to say why it stopped. */
  lastError: string | undefined;
  /** The signal the node logged it was shutting down on, if any. */
  stopSignal: string | undefined;

  constructor(
    private readonly name: string,
    private readonly out: Writable,
    private readonly pretty: boolean,
  ) {}

  line(text: string): void {
    const record = parseRecord(text);
    if (record === undefined) {
      // Lines the command prints itself, such as its one-line `error: …` on stderr.
      if (text.startsWith('error: ')) this.lastError = text.slice('error: '.length);
      this.say(text);
      return;
    }
    if (record.msg === 'Shutting down' && typeof record.signal === 'string') {
      this.stopSignal = record.signal;
    }
    if (record.level >= ERROR_LEVEL) {
      this.lastError = record.err?.message ? `${record.msg}: ${record.err.message}` : record.msg;
    }
    this.say(this.pretty ? formatLogRecord(record) : text);
  }

  /** Writes one or more lines, each prefixed with the node's name. */
  say(text: string): void {
    const lines = text.split('\n').map((line) => `${this.name} | ${line}\n`);
    this.out.write(lines.join(''));
  }
}

function parseRecord(text: string): LogRecord | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as Partial<LogRecord>;
    return typeof value.level === 'number' && typeof value.msg === 'string'
      ? (value as LogRecord)
      : undefined;
  } catch {
    // Not a log record after all: passed on as it is.
    return undefined;
  }
}
